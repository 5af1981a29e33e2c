package org.fastflowj.core.graph;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The vertices one farm or all-to-all compiled to, for pictures ({@link GraphDot}): the executor never
 * looks at clusters. {@link #vertices()} holds only the vertices directly inside; those of a nested farm
 * belong to the nested cluster, whose {@link #parent()} is this one.
 */
public final class Cluster {
    public enum Kind {
        FARM,
        ALL_TO_ALL
    }

    private final String name;
    private final Kind kind;
    private final Cluster parent;
    private final List<Vertex> vertices = new ArrayList<>();

    Cluster(String name, Kind kind, Cluster parent) {
        this.name = name;
        this.kind = kind;
        this.parent = parent;
    }

    /** The block's label in thread names: {@code farm2}, {@code a2a1}. */
    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    /** The farm or all-to-all this one is nested in, or null. */
    public Cluster parent() {
        return parent;
    }

    public List<Vertex> vertices() {
        return Collections.unmodifiableList(vertices);
    }

    void add(Vertex v) {
        vertices.add(v);
    }

    @Override
    public String toString() {
        return name;
    }
}
