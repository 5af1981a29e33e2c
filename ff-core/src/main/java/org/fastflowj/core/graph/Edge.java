package org.fastflowj.core.graph;

/**
 * A directed channel between two vertices: at run time one SPSC queue.
 *
 * @param from producing vertex
 * @param to consuming vertex
 * @param kind forward data, feedback data (always unbounded), or the ordered farm's order channel
 * @param slots fixed capacity (on-demand slots, or an ordered farm's tasks in flight); 0 for the run's
 *     default capacity
 * @param joinsAllToAllSets the edge goes from an L-Worker to an R-Worker of one all-to-all (its shuffle),
 *     as the compiler built it; a distributed run gives such edges between two groups their own credits
 */
public record Edge(Vertex from, Vertex to, Kind kind, int slots, boolean joinsAllToAllSets) {
    public enum Kind {
        FORWARD,
        FEEDBACK,
        ORDER
    }

    /** An edge that does not join the two sets of an all-to-all. */
    public Edge(Vertex from, Vertex to, Kind kind, int slots) {
        this(from, to, kind, slots, false);
    }

    @Override
    public String toString() {
        return from.name() + " -" + kind.name().toLowerCase(java.util.Locale.ROOT) + "-> " + to.name();
    }
}
