package org.fastflowj.core.graph;

/**
 * A directed channel between two vertices: at run time one SPSC queue.
 *
 * @param from producing vertex
 * @param to consuming vertex
 * @param kind forward data, feedback data (always unbounded), or the ordered farm's order channel
 * @param slots fixed capacity (on-demand slots, or an ordered farm's tasks in flight); 0 for the run's
 *     default capacity
 */
public record Edge(Vertex from, Vertex to, Kind kind, int slots) {
    public enum Kind {
        FORWARD,
        FEEDBACK,
        ORDER
    }

    @Override
    public String toString() {
        return from.name() + " -" + kind.name().toLowerCase(java.util.Locale.ROOT) + "-> " + to.name();
    }
}
