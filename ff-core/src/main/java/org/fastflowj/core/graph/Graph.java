package org.fastflowj.core.graph;

import java.util.Collections;
import java.util.List;

/**
 * The concurrency graph of a building-block tree: one vertex per thread, one edge per SPSC channel.
 * It knows nothing of farms or pipelines any more; the executor runs it as it is.
 */
public final class Graph {
    private final List<Vertex> vertices;
    private final List<Edge> edges;
    private final List<Cluster> clusters;
    private final List<RecoverableFarm> recoverableFarms;
    private final List<RecoverableAllToAll> recoverableAllToAlls;

    Graph(List<Vertex> vertices, List<Edge> edges) {
        this(vertices, edges, List.of());
    }

    Graph(List<Vertex> vertices, List<Edge> edges, List<Cluster> clusters) {
        this(vertices, edges, clusters, List.of());
    }

    Graph(List<Vertex> vertices, List<Edge> edges, List<Cluster> clusters, List<RecoverableFarm> recoverableFarms) {
        this(vertices, edges, clusters, recoverableFarms, List.of());
    }

    Graph(
            List<Vertex> vertices,
            List<Edge> edges,
            List<Cluster> clusters,
            List<RecoverableFarm> recoverableFarms,
            List<RecoverableAllToAll> recoverableAllToAlls) {
        this.recoverableAllToAlls = List.copyOf(recoverableAllToAlls);
        this.vertices = Collections.unmodifiableList(vertices);
        this.edges = Collections.unmodifiableList(edges);
        this.clusters = Collections.unmodifiableList(clusters);
        this.recoverableFarms = List.copyOf(recoverableFarms);
    }

    /** The {@link org.fastflowj.core.Farm#recoverable() recoverable} farms, with their workers' edges. */
    public List<RecoverableFarm> recoverableFarms() {
        return recoverableFarms;
    }

    /** The {@link org.fastflowj.core.AllToAll#recoverable() recoverable} all-to-alls, with their edges. */
    public List<RecoverableAllToAll> recoverableAllToAlls() {
        return recoverableAllToAlls;
    }

    /** The farms and all-to-alls the vertices came from, outer ones before the ones nested in them. */
    public List<Cluster> clusters() {
        return clusters;
    }

    public List<Vertex> vertices() {
        return vertices;
    }

    public List<Edge> edges() {
        return edges;
    }

    /** The vertex with this thread name. */
    public Vertex vertex(String name) {
        for (Vertex v : vertices) {
            if (v.name().equals(name)) {
                return v;
            }
        }
        throw new IllegalArgumentException("no vertex named " + name + " in " + vertices);
    }

    /** One line per edge, for debugging and tests. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (Edge e : edges) {
            sb.append(e).append('\n');
        }
        return sb.toString();
    }
}
