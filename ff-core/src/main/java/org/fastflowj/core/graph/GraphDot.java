package org.fastflowj.core.graph;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.fastflowj.core.Combiner;

/**
 * A {@link Graph} in Graphviz DOT: one box per vertex (thread) listing the nodes fused into it, one
 * arrow per channel with its kind as the {@code class} attribute ({@code forward}, {@code ondemand},
 * {@code feedback}, {@code order}), and a cluster per distributed group, farm and all-to-all.
 *
 * <pre>
 *   subgraph "cluster_group_G1" {          only when the program has groups
 *     subgraph "cluster_farm1" { ... }     a farm or all-to-all split by groups shows in each of them
 *   }
 * </pre>
 */
public final class GraphDot {
    private final Graph graph;
    private final StringBuilder out = new StringBuilder();

    private GraphDot(Graph graph) {
        this.graph = graph;
    }

    /** The picture of {@code graph}; {@code title} becomes the graph's label. */
    public static String render(Graph graph, String title) {
        return new GraphDot(graph).write(title);
    }

    private String write(String title) {
        out.append("digraph \"fastflow\" {\n");
        out.append("  label=").append(quote(title)).append(";\n");
        out.append("  rankdir=LR;\n  compound=true;\n  node [shape=box, fontname=\"monospace\"];\n");
        Set<String> groups = new LinkedHashSet<>();
        graph.vertices().forEach(v -> groups.add(v.group()));
        for (String group : groups) {
            String indent = "  ";
            if (group != null) {
                out.append(indent)
                        .append("subgraph ")
                        .append(quote("cluster_group_" + group))
                        .append(" {\n");
                out.append(indent)
                        .append("  label=")
                        .append(quote("group " + group))
                        .append(";\n");
                indent += "  ";
            }
            for (Cluster c : graph.clusters()) {
                if (c.parent() == null) {
                    cluster(c, group, indent);
                }
            }
            for (Vertex v : graph.vertices()) {
                if (inNoCluster(v) && Objects.equals(v.group(), group)) {
                    vertex(v, indent);
                }
            }
            if (group != null) {
                out.append("  }\n");
            }
        }
        for (Edge e : graph.edges()) {
            edge(e);
        }
        return out.append("}\n").toString();
    }

    private boolean inNoCluster(Vertex v) {
        return graph.clusters().stream().noneMatch(c -> c.vertices().contains(v));
    }

    private void cluster(Cluster c, String group, String indent) {
        if (!holds(c, group)) {
            return;
        }
        String id = "cluster_" + (group == null ? "" : group + "_") + c.name();
        out.append(indent).append("subgraph ").append(quote(id)).append(" {\n");
        String kind = c.kind() == Cluster.Kind.FARM ? "farm " : "all-to-all ";
        out.append(indent).append("  label=").append(quote(kind + c.name())).append(";\n");
        out.append(indent).append("  style=rounded;\n");
        for (Vertex v : c.vertices()) {
            if (Objects.equals(v.group(), group)) {
                vertex(v, indent + "  ");
            }
        }
        for (Cluster inner : graph.clusters()) {
            if (inner.parent() == c) {
                cluster(inner, group, indent + "  ");
            }
        }
        out.append(indent).append("}\n");
    }

    /** Whether {@code c} or a cluster nested in it has a vertex of {@code group}. */
    private boolean holds(Cluster c, String group) {
        if (c.vertices().stream().anyMatch(v -> Objects.equals(v.group(), group))) {
            return true;
        }
        return graph.clusters().stream().anyMatch(inner -> inner.parent() == c && holds(inner, group));
    }

    private void vertex(Vertex v, String indent) {
        List<String> parts = new ArrayList<>();
        fusedParts(v.work(), parts);
        String label = v.name() + "\n" + String.join("\n", parts);
        out.append(indent).append(quote(v.name())).append(" [label=").append(quote(label));
        if (parts.size() > 1) {
            out.append(", class=\"fused\", peripheries=2");
        }
        out.append("];\n");
    }

    private static void fusedParts(Object node, List<String> parts) {
        if (node instanceof Combiner<?, ?> c) {
            fusedParts(c.first(), parts);
            fusedParts(c.second(), parts);
        } else {
            parts.add(node.toString());
        }
    }

    private void edge(Edge e) {
        String kind;
        String style;
        if (e.kind() == Edge.Kind.FEEDBACK) {
            kind = "feedback";
            style = "style=dashed, color=blue, constraint=false";
        } else if (e.kind() == Edge.Kind.ORDER) {
            kind = "order";
            style = "style=dotted, color=gray, constraint=false";
        } else if (e.slots() > 0) {
            // A forward channel with fixed slots is an on-demand one: the compiler sets slots on no other.
            kind = "ondemand";
            style = "style=bold, label=" + quote("on-demand " + e.slots());
        } else {
            kind = "forward";
            style = "style=solid";
        }
        out.append("  ")
                .append(quote(e.from().name()))
                .append(" -> ")
                .append(quote(e.to().name()))
                .append(" [class=")
                .append(quote(kind))
                .append(", ")
                .append(style)
                .append("];\n");
    }

    private static String quote(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
    }
}
