package org.fastflowj.core.graph;

import java.util.List;

/**
 * Test fixture: graphs of engine tasks alone, which no program compiles to: a bridge feeding a bridge, so
 * a test sees what one offers exactly as the other drains it, control values included (a node would take
 * them itself).
 */
public final class TaskGraphs {
    private TaskGraphs() {}

    /** {@code producer -> consumer} on one forward edge of the run's default capacity, in group G. */
    public static Graph chain(EngineTask producer, EngineTask consumer) {
        Vertex from = new Vertex(0, "producer", producer, "G");
        Vertex to = new Vertex(1, "consumer", consumer, "G");
        Edge edge = new Edge(from, to, Edge.Kind.FORWARD, 0);
        from.addOut(edge);
        to.addIn(edge);
        return new Graph(List.of(from, to), List.of(edge));
    }
}
