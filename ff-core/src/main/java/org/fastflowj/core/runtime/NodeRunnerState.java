package org.fastflowj.core.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.graph.Vertex;

/**
 * The fields of a {@link NodeRunner}: what it was built from, its channels (set once by {@link #wire}
 * before its thread starts), its node-thread state and its statistics.
 *
 * <p>A runner is one object whose code is split over a chain of classes, one duty each, the way JCTools
 * splits a queue into field layers: state, then {@link NodeRunnerWaits waiting}, {@link
 * NodeRunnerOutputs output side}, {@link NodeRunnerInputs input side}, {@link NodeRunnerContext the
 * node's view} and the {@link NodeRunner life cycle}. Every mutable field lives here, in one block after
 * the park state's padding, so the layout that {@code ParkingStateLayoutTest} guards stays in one place.
 *
 * <p>Threading: the node thread alone reads and writes the non-final fields, except the statistics,
 * which the executor reads after joining the thread.
 */
abstract class NodeRunnerState extends ParkerPadAfter {
    final String name;
    /** "node NAME", built before any out-of-memory: a fatal error's report must not need a new string. */
    final String fatalErrorSite;

    final Node<?, ?> node;
    final int nodeId;
    final RunControl control;
    final IdlePolicy idle;
    final IdlePolicy shortIdle;
    final NodeAccess access = NodeAccess.get();
    final Vertex.OrderRole orderRole;
    final int cpuRequest;
    /** The node as a bridge to other groups (ff-dist), or null for an ordinary node. */
    final BridgeNode bridge;
    /** What every sent item goes through (ff-dist's serialization check), or null. */
    final UnaryOperator<Object> itemFilter;
    /** A recoverable farm's emitter: the items it sends again, or null for any other node. */
    final Redelivery redelivery;
    /** With a redelivery: items put on each forward output, for the end to wait until they are settled. */
    long[] putOnOutput;

    /** Whether this node's default outputs / forward inputs are short (on-demand) channels. */
    boolean shortOutputs;

    boolean shortInputs;
    /** How this thread waits on its inputs and outputs: chosen in wire(), by the channels' length. */
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

    boolean endMarked;

    // node-thread state
    int liveForward;
    int liveForwardOutputs;
    int cursor;
    int nextOut;
    int currentChannel;
    boolean currentFeedback;
    boolean endRequested;
    int orderWorker = -1;
    boolean orderDrained;
    int sinceFence;
    String phase = "svcInit";
    /** EOS went out on the forward outputs (at the end, or early by a loop head's sendOut(eos())). */
    boolean forwardEnded;
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

    NodeRunnerState(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest) {
        this.name = vertex.name();
        this.fatalErrorSite = "node " + name;
        this.node = vertex.node();
        this.nodeId = vertex.id();
        this.control = control;
        this.idle = idle;
        this.shortIdle = idle.forShortChannels();
        this.orderRole = vertex.orderRole();
        this.cpuRequest = cpuRequest;
        this.bridge = vertex.node() instanceof BridgeNode b ? b : null;
        this.itemFilter = control.hooks.newItemFilter();
        this.redelivery = control.hooks.redeliveryFor(name);
    }

    void wire(
            SpscChannel[] forwardIn,
            SpscChannel[] feedbackIn,
            SpscChannel[] forwardOut,
            SpscChannel[] feedbackOut,
            SpscChannel orderChannel,
            OnDemandDispatch dispatch) {
        this.inputs = new SpscChannel[forwardIn.length + feedbackIn.length];
        System.arraycopy(forwardIn, 0, inputs, 0, forwardIn.length);
        System.arraycopy(feedbackIn, 0, inputs, forwardIn.length, feedbackIn.length);
        this.forwardInputs = forwardIn.length;
        this.liveForward = forwardIn.length;
        this.forwardOut = forwardOut;
        this.feedbackOut = feedbackOut;
        this.defaultOut = forwardOut.length > 0 ? forwardOut : feedbackOut;
        this.liveForwardOutputs = forwardOut.length;
        if (redelivery != null) {
            this.putOnOutput = new long[forwardOut.length];
            if (dispatch != null) {
                dispatch.countPlacements(); // on-demand: the dispatch, not this thread, puts items on the slots
            }
        }
        this.orderChannel = orderChannel;
        this.dispatch = dispatch;
        this.currentFeedback = forwardIn.length == 0 && feedbackIn.length == 1; // fixed for one input
        if (dispatch != null) {
            liveForwardOutputs = 1; // the staging channel stands for all the slots
        } else {
            for (SpscChannel ch : defaultOut) {
                shortOutputs |= ch.limit <= IdlePolicy.SHORT_CHANNEL;
            }
        }
        List<SpscChannel> dispatched = new ArrayList<>();
        for (SpscChannel ch : forwardIn) {
            if (ch.dispatch != null) {
                dispatched.add(ch);
            }
            shortInputs |= ch.limit <= IdlePolicy.SHORT_CHANNEL;
        }
        this.dispatchedInputs = dispatched.toArray(new SpscChannel[0]);
        this.inputIdler = new IdleStrategy(shortInputs ? shortIdle : idle);
        this.outputIdler = new IdleStrategy(shortOutputs ? shortIdle : idle);
    }

    NodeStats stats() {
        long total = Math.max(0, endNanos - startNanos);
        long svc = Math.max(0, total - blockedInNanos - blockedOutNanos);
        return new NodeStats(name, itemsIn, itemsOut, svc, blockedInNanos, blockedOutNanos, cpu);
    }
}
