package org.fastflowj.core.runtime;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeCounter;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.graph.Vertex;

/**
 * The fields of one {@link NodeRunner}, in one block behind the park state's padding (the layout {@code
 * ParkingStateLayoutTest} guards): what it was built from, its channels and parts (set once by {@link
 * NodeRunner#wire} before its thread starts), its node-thread state and its statistics. Fields only: the
 * behaviour is in the runner's parts ({@link InputGate}, {@link OutputRouter}, {@link InputChannels},
 * {@link OutputChannels}, {@link RunnerWaits}), which share this block, so the per-item
 * state of one thread stays on lines no other thread writes.
 *
 * <p>Threading: the node thread alone reads and writes the non-final fields, except the statistics,
 * which the executor reads after joining the thread.
 */
abstract class RunnerState extends ChannelEnd {
    /** "node NAME", built before any out-of-memory: a fatal error's report must not need a new string. */
    final String fatalErrorSite;

    final Node<?, ?> node;
    final int nodeId;
    final RunControl control;
    final IdlePolicy idle;
    final NodeAccess access = NodeAccess.get();
    final Vertex.OrderRole orderRole;
    final int cpuRequest;
    /** {@link #cpuRequest} was claimed for this runner ({@code threadMapping("auto")}): released at its end. */
    final boolean cpuClaimed;
    /** What every sent item goes through (ff-dist's serialization check), or null. */
    final UnaryOperator<Object> itemFilter;

    // wiring: set once by NodeRunner.wire, before the thread starts
    /** How this thread waits on its inputs and outputs: chosen by the channels' length. */
    IdleStrategy inputIdler;

    IdleStrategy outputIdler;
    SpscChannel[] inputs;
    int forwardInputs;
    SpscChannel[] forwardOut;
    SpscChannel[] feedbackOut;
    SpscChannel[] defaultOut;
    SpscChannel orderChannel;
    /** Set when this node's default outputs are on-demand slots: items go through its staging channel. */
    OnDemandDispatch dispatch;
    /** Forward inputs that are on-demand slots of some dispatch, which this node runs when they are empty. */
    SpscChannel[] dispatchedInputs;

    // the parts, chosen by wire() for this node's mode
    /** Where the next item comes from; an ordered collector's gate hands over to a plain one once. */
    InputGate gate;

    OutputRouter router;
    InputChannels in;
    OutputChannels out;
    RunnerWaits waits;
    /** What a waiting thread does before each idle step: nothing, or a recoverable emitter's redelivery. */
    IdleHook idleHook;
    /** A recoverable farm's emitter's redelivery, or null for any other node. */
    Redeliverer redeliverer;

    ItemLoop itemLoop;

    // node-thread state
    RunPhase runPhase = RunPhase.RUNNING;
    OutputSide outputSide = OutputSide.OPEN;
    int liveForward;
    int liveForwardOutputs;
    int cursor;
    int nextOut;
    int currentChannel;
    boolean currentFeedback;
    /** The ordered collector's worker whose task it reads, or -1 to read the next order record. */
    int orderWorker = -1;
    /** Items since the last fence, per side: each side fences one item in 64 (see Parker). */
    int inputsSinceFence;

    int outputsSinceFence;
    /** The user call running, for failure reports: svcInit, svc, eosNotify, svcEnd. */
    String phase = "svcInit";
    /** The node's thread, as a plain field: read on every sendOut. */
    Thread ownThread;

    // statistics, read after the thread ended
    long itemsIn;
    long itemsOut;
    long blockedInNanos;
    long blockedOutNanos;
    long startNanos;
    long endNanos;
    int cpu = -1;

    RunnerState(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest, boolean cpuClaimed) {
        super(vertex.name());
        this.fatalErrorSite = "node " + name;
        this.node = vertex.node();
        this.nodeId = vertex.id();
        this.control = control;
        this.idle = idle;
        this.orderRole = vertex.orderRole();
        this.cpuRequest = cpuRequest;
        this.cpuClaimed = cpuClaimed;
        this.itemFilter = control.hooks.newItemFilter();
    }

    /** The per-item loop a node runs, chosen once by its inputs. */
    enum ItemLoop {
        /** No inputs: svc(null) until the node ends. */
        PRODUCE,
        /** Plain items only. */
        CONSUME,
        /** Chunks from a bridge to unroll, or an ordered farm worker's task marks to send. */
        CONSUME_UNROLLING
    }

    @Override
    NodeStats stats() {
        long total = Math.max(0, endNanos - startNanos);
        long svc = Math.max(0, total - blockedInNanos - blockedOutNanos);
        return new NodeStats(name, itemsIn, itemsOut, svc, blockedInNanos, blockedOutNanos, cpu, counts(node));
    }

    /** The node's counters now, those of one name added up (the parts of a combiner). */
    static Map<String, Long> counts(Node<?, ?> node) {
        List<NodeCounter> counters = node.counters();
        if (counters.isEmpty()) {
            return Map.of();
        }
        Map<String, Long> counts = new LinkedHashMap<>();
        for (NodeCounter c : counters) {
            counts.merge(c.name(), c.get(), Long::sum);
        }
        return counts;
    }
}
