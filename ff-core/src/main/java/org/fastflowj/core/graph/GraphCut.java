package org.fastflowj.core.graph;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cuts a whole program's graph down to one distributed group: the group's vertices with their edges
 * among themselves, plus one <em>bridge</em> vertex per peer group and direction that stands for the rest
 * of the program:
 *
 * <pre>
 *   group G1 of  source ─▶ a2a ─▶ sink            in G2's process:
 *                (G1)    (G2,G3)  (G4)
 *                                                   ff-recv-G1 ──▶ L0 ──▶ R0 ──▶ ff-send-G4
 *                                                   ff-recv-G3 ──▶    ╲─▶ R1 ──▶
 *                                                                       ╲──────▶ ff-send-G3
 * </pre>
 *
 * A local vertex keeps its name, node, id and the order of its channels: an edge to another group now
 * ends at the sender of that group, at the same position in the vertex's output list, and an edge from
 * another group starts at that group's receiver, at the same position in the input list. So a node sees
 * the same {@code id()}, channel numbers and channel counts as in the one-process run.
 *
 * <p>A sender's inputs and a receiver's outputs are the cut edges of its peer, forward edges first then
 * feedback ones, each kind in the whole graph's edge order: input (output) channel {@code i} of the bridge
 * is the {@code i}-th edge of the list its factory got.
 *
 * <p>The graph was compiled, so {@link GroupLayout} has checked its groups: every farm's emitter and
 * collector, and with them an ordered farm's order channel, lie in one group, and only forward and
 * feedback edges are cut (a farm's emitter-to-worker, worker-to-collector and worker-to-emitter edges
 * among them). A remote worker of an ordered farm keeps its part ({@link Vertex.OrderRole#MARK}): the
 * bridges carry its per-task marks (a TASK_DONE message in line with the worker's items).
 */
public final class GraphCut {
    /** Makes the bridges of one group; given the whole graph's edges each bridge carries. */
    public interface BridgeFactory {
        /** The task that takes the group's items for {@code peerGroup} and sends them there. */
        EngineTask sender(String peerGroup, List<Edge> forward, List<Edge> feedback);

        /** The task that receives the items {@code peerGroup} sends here and hands them to local nodes. */
        EngineTask receiver(String peerGroup, List<Edge> forward, List<Edge> feedback);
    }

    private GraphCut() {}

    /** The groups of a graph, in the order their first vertex appears; empty if it has none. */
    public static Set<String> groups(Graph whole) {
        Set<String> groups = new LinkedHashSet<>();
        for (Vertex v : whole.vertices()) {
            if (v.group() != null) {
                groups.add(v.group());
            }
        }
        return groups;
    }

    /**
     * The graph that the process of {@code group} runs.
     *
     * @throws IllegalArgumentException if no vertex belongs to {@code group}
     */
    public static Graph forGroup(Graph whole, String group, BridgeFactory factory) {
        List<Vertex> vertices = new ArrayList<>();
        Map<Vertex, Vertex> local = new IdentityHashMap<>();
        for (Vertex v : whole.vertices()) {
            if (group.equals(v.group())) {
                Vertex copy = new Vertex(vertices.size(), v.name(), v.node(), v.id(), group);
                local.put(v, copy);
                vertices.add(copy);
            }
        }
        if (vertices.isEmpty()) {
            throw new IllegalArgumentException(
                    "the program has no group named " + group + " (its groups: " + groups(whole) + ")");
        }
        Map<String, List<Edge>> outgoing = new LinkedHashMap<>();
        Map<String, List<Edge>> incoming = new LinkedHashMap<>();
        for (Edge e : whole.edges()) {
            boolean fromHere = local.containsKey(e.from());
            boolean toHere = local.containsKey(e.to());
            if (fromHere && !toHere) {
                outgoing.computeIfAbsent(e.to().group(), g -> new ArrayList<>()).add(e);
            } else if (toHere && !fromHere) {
                incoming.computeIfAbsent(e.from().group(), g -> new ArrayList<>())
                        .add(e);
            }
        }
        Map<Edge, Vertex> bridgeOf = new IdentityHashMap<>();
        for (Map.Entry<String, List<Edge>> peer : outgoing.entrySet()) {
            List<Edge> forward = ofKind(peer.getValue(), Edge.Kind.FORWARD);
            List<Edge> feedback = ofKind(peer.getValue(), Edge.Kind.FEEDBACK);
            EngineTask task = factory.sender(peer.getKey(), forward, feedback);
            Vertex sender = new Vertex(vertices.size(), "ff-send-" + peer.getKey(), task, group);
            vertices.add(sender);
            peer.getValue().forEach(e -> bridgeOf.put(e, sender));
        }
        for (Map.Entry<String, List<Edge>> peer : incoming.entrySet()) {
            List<Edge> forward = ofKind(peer.getValue(), Edge.Kind.FORWARD);
            List<Edge> feedback = ofKind(peer.getValue(), Edge.Kind.FEEDBACK);
            EngineTask task = factory.receiver(peer.getKey(), forward, feedback);
            Vertex receiver = new Vertex(vertices.size(), "ff-recv-" + peer.getKey(), task, group);
            vertices.add(receiver);
            peer.getValue().forEach(e -> bridgeOf.put(e, receiver));
        }
        List<Edge> edges = new ArrayList<>();
        Map<Edge, Edge> copies = new IdentityHashMap<>();
        // The whole graph's edges in order: each vertex's lists come out in their original order, and a
        // bridge's lists in the order its factory saw (forward and feedback are separate lists anyway).
        for (Edge e : whole.edges()) {
            Vertex from = local.containsKey(e.from()) ? local.get(e.from()) : bridgeOf.get(e);
            Vertex to = local.containsKey(e.to()) ? local.get(e.to()) : bridgeOf.get(e);
            if (from == null || to == null) {
                continue; // between two other groups
            }
            Edge copy = new Edge(from, to, e.kind(), e.slots(), e.joinsAllToAllSets());
            copies.put(e, copy);
            edges.add(copy);
            if (e.kind() != Edge.Kind.ORDER) {
                from.addOut(copy);
                to.addIn(copy);
            }
        }
        for (Map.Entry<Vertex, Vertex> pair : local.entrySet()) {
            Vertex original = pair.getKey();
            pair.getValue().workerAffinity(original.affinitySets(), original.workerAffinity());
            if (original.orderRole() != Vertex.OrderRole.NONE) {
                Edge order = original.orderEdge();
                pair.getValue().orderRole(original.orderRole(), order == null ? null : copies.get(order));
            }
        }
        return new Graph(vertices, edges);
    }

    private static List<Edge> ofKind(List<Edge> edges, Edge.Kind kind) {
        List<Edge> result = new ArrayList<>();
        for (Edge e : edges) {
            if (e.kind() == kind) {
                result.add(e);
            }
        }
        return result;
    }
}
