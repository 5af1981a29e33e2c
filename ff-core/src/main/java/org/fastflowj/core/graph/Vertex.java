package org.fastflowj.core.graph;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.fastflowj.core.Node;
import org.fastflowj.core.WorkerAffinity;

/**
 * A leaf of the building-block tree: one node (or combiner), run by one thread named {@link #name()}.
 * Its channels are listed by kind, each list in index order: forward input {@code i} is what the node
 * sees as {@code inputChannel() == i}.
 */
public final class Vertex {
    /** The vertex's part in an ordered farm. */
    public enum OrderRole {
        NONE,
        /** Emitter: records which worker got each task on the order channel. */
        RECORD,
        /** First vertex of a worker: after each task, sends "task done" downstream. */
        MARK,
        /** Later vertex of a worker: passes "task done" on. */
        PASS_MARKS,
        /** Collector: reads workers in the recorded order. */
        COLLECT
    }

    private final int index;
    private final String name;
    private final Node<?, ?> node;
    /** What a bridge vertex runs instead of a node, or null for a node's vertex. */
    private final EngineTask task;

    private final int id;
    private final String group;
    private final List<Edge> forwardIn = new ArrayList<>();
    private final List<Edge> feedbackIn = new ArrayList<>();
    private final List<Edge> forwardOut = new ArrayList<>();
    private final List<Edge> feedbackOut = new ArrayList<>();
    private OrderRole orderRole = OrderRole.NONE;
    private Edge orderEdge;
    /** A farm emitter's {@code Farm.affinity} and its sets of workers, which its dispatch follows; null for none. */
    private WorkerAffinity workerAffinity;

    private int[][] affinitySets;

    Vertex(int index, String name, Node<?, ?> node, int id, String group) {
        this.index = index;
        this.name = name;
        this.node = node;
        this.task = null;
        this.id = id;
        this.group = group;
    }

    /** A bridge vertex: it runs {@code task}, not a node. */
    Vertex(int index, String name, EngineTask task, String group) {
        this.index = index;
        this.name = name;
        this.node = null;
        this.task = task;
        this.id = 0;
        this.group = group;
    }

    public int index() {
        return index;
    }

    public String name() {
        return name;
    }

    /** The vertex's node, or null for a bridge vertex (see {@link #task()}). */
    public Node<?, ?> node() {
        return node;
    }

    /** What a bridge vertex runs instead of a node, or null for a node's vertex. */
    public EngineTask task() {
        return task;
    }

    /** What the vertex runs, as graph reports show it: its node, or its task. */
    public Object work() {
        return node != null ? node : task;
    }

    /** The value {@code node.id()} returns during the run. */
    public int id() {
        return id;
    }

    /** The distributed group the vertex belongs to, or null when the program has no groups. */
    public String group() {
        return group;
    }

    public List<Edge> forwardIn() {
        return Collections.unmodifiableList(forwardIn);
    }

    public List<Edge> feedbackIn() {
        return Collections.unmodifiableList(feedbackIn);
    }

    public List<Edge> forwardOut() {
        return Collections.unmodifiableList(forwardOut);
    }

    public List<Edge> feedbackOut() {
        return Collections.unmodifiableList(feedbackOut);
    }

    public OrderRole orderRole() {
        return orderRole;
    }

    /** The order channel, for {@link OrderRole#RECORD} (outgoing) and {@link OrderRole#COLLECT} (incoming). */
    public Edge orderEdge() {
        return orderEdge;
    }

    /** Which set of its forward outputs an on-demand farm's emitter would rather give each item to, or null. */
    public WorkerAffinity workerAffinity() {
        return workerAffinity;
    }

    /** The sets of forward outputs {@link #workerAffinity} names, or null. */
    public int[][] affinitySets() {
        return affinitySets;
    }

    void workerAffinity(int[][] sets, WorkerAffinity affinity) {
        this.affinitySets = sets;
        this.workerAffinity = affinity;
    }

    void orderRole(OrderRole role, Edge edge) {
        this.orderRole = role;
        this.orderEdge = edge;
    }

    void addOut(Edge edge) {
        (edge.kind() == Edge.Kind.FEEDBACK ? feedbackOut : forwardOut).add(edge);
    }

    void addIn(Edge edge) {
        (edge.kind() == Edge.Kind.FEEDBACK ? feedbackIn : forwardIn).add(edge);
    }

    @Override
    public String toString() {
        return name;
    }
}
