package org.fastflowj.core.metrics;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.graph.Cluster;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.Vertex;

/**
 * A {@link Graph}'s structure as the live page's {@code /api/graph} answer: one vertex per thread with
 * its column (its pipeline depth: the longest chain of forward channels from a source to it), its
 * distributed group, the farms and all-to-alls it is in (outermost first) and the nodes fused into it;
 * one edge per channel with its kind.
 *
 * <pre>
 * {"vertices": [{"name": "parser", "column": 1, "group": "G1", "clusters": ["farm1"],
 *                "parts": ["parser"]}, ...],
 *  "clusters": [{"name": "farm1", "kind": "farm"}, ...],
 *  "edges": [{"from": "source", "to": "parser", "kind": "forward"}, ...]}
 * </pre>
 */
final class GraphJson {
    private GraphJson() {}

    static String format(Graph graph) {
        Map<Vertex, Integer> columns = columns(graph);
        Map<Vertex, Cluster> innermost = new IdentityHashMap<>();
        for (Cluster c : graph.clusters()) {
            c.vertices().forEach(v -> innermost.put(v, c));
        }
        StringBuilder out = new StringBuilder(1024);
        out.append("{\"vertices\":[");
        List<Vertex> vertices = graph.vertices();
        for (int i = 0; i < vertices.size(); i++) {
            Vertex v = vertices.get(i);
            out.append(i == 0 ? "{" : ",{");
            JsonText.key(out, "name");
            JsonText.string(out, v.name());
            out.append(",\"column\":").append(columns.get(v));
            out.append(",\"group\":");
            JsonText.string(out, v.group());
            out.append(",\"clusters\":[");
            clusterPath(out, innermost.get(v));
            out.append("],\"parts\":[");
            fusedParts(out, v.work(), true);
            out.append("]}");
        }
        out.append("],\"clusters\":[");
        List<Cluster> clusters = graph.clusters();
        for (int i = 0; i < clusters.size(); i++) {
            Cluster c = clusters.get(i);
            out.append(i == 0 ? "{" : ",{");
            JsonText.key(out, "name");
            JsonText.string(out, c.name());
            out.append(",\"kind\":").append(c.kind() == Cluster.Kind.FARM ? "\"farm\"" : "\"all-to-all\"");
            out.append('}');
        }
        out.append("],\"edges\":[");
        List<Edge> edges = graph.edges();
        for (int i = 0; i < edges.size(); i++) {
            Edge e = edges.get(i);
            out.append(i == 0 ? "{" : ",{");
            JsonText.key(out, "from");
            JsonText.string(out, e.from().name());
            out.append(",\"to\":");
            JsonText.string(out, e.to().name());
            out.append(",\"kind\":").append(kind(e)).append('}');
        }
        return out.append("]}").toString();
    }

    /**
     * Each vertex's longest chain of forward channels from a source, in topological order (Kahn): a
     * vertex gets its column once every producer has one. Feedback and order channels are left out, so
     * the chains have no cycle; a vertex reached only through a cycle anyway gets column 0.
     */
    static Map<Vertex, Integer> columns(Graph graph) {
        Map<Vertex, Integer> column = new HashMap<>();
        Map<Vertex, Integer> unplacedProducers = new HashMap<>();
        ArrayDeque<Vertex> ready = new ArrayDeque<>();
        for (Vertex v : graph.vertices()) {
            column.put(v, 0);
            unplacedProducers.put(v, 0);
        }
        for (Edge e : graph.edges()) {
            if (e.kind() == Edge.Kind.FORWARD) {
                unplacedProducers.merge(e.to(), 1, Integer::sum);
            }
        }
        graph.vertices().stream().filter(v -> unplacedProducers.get(v) == 0).forEach(ready::add);
        while (!ready.isEmpty()) {
            Vertex v = ready.poll();
            for (Edge e : v.forwardOut()) {
                if (e.kind() != Edge.Kind.FORWARD) {
                    continue;
                }
                column.merge(e.to(), column.get(v) + 1, Math::max);
                if (unplacedProducers.merge(e.to(), -1, Integer::sum) == 0) {
                    ready.add(e.to());
                }
            }
        }
        return column;
    }

    private static void clusterPath(StringBuilder out, Cluster c) {
        if (c == null) {
            return;
        }
        if (c.parent() != null) {
            clusterPath(out, c.parent());
            out.append(',');
        }
        JsonText.string(out, c.name());
    }

    private static boolean fusedParts(StringBuilder out, Object node, boolean first) {
        if (node instanceof Combiner<?, ?> c) {
            return fusedParts(out, c.second(), fusedParts(out, c.first(), first));
        }
        if (!first) {
            out.append(',');
        }
        JsonText.string(out, node.toString());
        return false;
    }

    private static String kind(Edge e) {
        if (e.kind() == Edge.Kind.FEEDBACK) {
            return "\"feedback\"";
        }
        if (e.kind() == Edge.Kind.ORDER) {
            return "\"order\"";
        }
        return e.slots() > 0 ? "\"ondemand\"" : "\"forward\""; // the compiler sets slots on on-demand ones only
    }
}
