package org.fastflowj.core.runtime.node;

import java.lang.invoke.VarHandle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeCounter;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.checkpoint.CheckpointMode;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.runtime.channel.ChannelEnd;
import org.fastflowj.core.runtime.channel.Chunk;
import org.fastflowj.core.runtime.channel.IdlePolicy;
import org.fastflowj.core.runtime.channel.OnDemandDispatch;
import org.fastflowj.core.runtime.channel.Parker;
import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.runtime.control.Affinity;
import org.fastflowj.core.runtime.control.Cancelled;
import org.fastflowj.core.runtime.control.CheckpointCoordinator;
import org.fastflowj.core.runtime.control.FatalErrors;
import org.fastflowj.core.runtime.control.NodeStates;
import org.fastflowj.core.runtime.control.RunControl;
import org.fastflowj.core.runtime.recovery.Redelivery;
import org.fastflowj.core.runtime.recovery.TakeRecorder;
import org.fastflowj.core.spi.CheckedSvcException;
import org.fastflowj.core.spi.CheckpointBarrier;
import org.fastflowj.core.spi.NodeContext;
import org.fastflowj.core.spi.NodeLifecycle;
import org.fastflowj.core.spi.PhaseFailure;
import org.fastflowj.core.spi.Sentinel;

/**
 * The loop of one node thread: take an item from an input channel, run {@code svc}, put the results on
 * output channels; wait by the run's {@link IdlePolicy} when inputs are empty or outputs full.
 *
 * <pre>
 *   inputs (forward 0..f-1, feedback f..)        outputs (forward, feedback)
 *   ──▶ SPSC ─┐                               ┌─▶ SPSC ──▶   round-robin / on-demand,
 *   ──▶ SPSC ─┼─▶ InputGate ──────────▶ svc ──┼─▶ SPSC ──▶   or chosen by the node
 *   ──▶ SPSC ─┘   (one per channel in turn)   └─▶ SPSC ──▶   (OutputRouter)
 * </pre>
 *
 * <p>The runner is built from parts, each chosen once by {@link #wire} for the node's place in the
 * graph, so the per-item loop tests no mode. Its input side ({@link InputChannels}: the inputs, their
 * state, an {@link InputGate}: one input, several in turn, or an ordered farm's recorded order) and its
 * output side ({@link OutputChannels}: the outputs, their state, an {@link EndHook}; an {@link
 * OutputRouter} in front: none, one, round-robin, on-demand, recorded) each own their fields, in padded
 * objects of their own; they reach the runner through {@link NodeLife} and wait through {@link
 * ChannelEnd#pause}, on this runner as its {@link Parker}. The runner keeps the node, its life (a {@link
 * RunPhase}) and its statistics. Its forward outputs as a whole are an {@link OutputSide}, each
 * channel's ends {@link SpscChannel.Intake} and {@link SpscChannel.Outflow}.
 *
 * <p>End of stream: EOS on a forward input calls the node's {@code inputEnded}; when every forward
 * input ended (and every feedback producer is done), or when {@code svc} returns EOS, the node sends EOS
 * on its forward outputs, marks its channels ended, closes its inputs (producers then drop instead of
 * waiting) and runs {@code svcEnd}. A node whose every forward consumer is gone ends the same way
 * (feedback consumers do not count: the loop head ends a loop by sending EOS forward through it).
 *
 * <p>Threading: one thread runs all of this; other threads only read the park state and the channels'
 * end flags. Per item the hot path takes no lock and allocates nothing.
 */
public class NodeRunner extends ChannelEnd implements NodeContext, NodeLife, BarrierAlignment.Aligned {
    /**
     * A runner padded at its end too: what the executor creates (see {@link Padded}). {@code cpuClaimed}:
     * {@code cpuRequest} came from {@link Affinity#claim}, released when the thread ends.
     */
    public static NodeRunner create(
            Vertex vertex,
            RunControl control,
            IdlePolicy idle,
            int cpuRequest,
            boolean cpuClaimed,
            NodeLifecycle<Node<?, ?>> lifecycle) {
        return new Padded(vertex, control, idle, cpuRequest, cpuClaimed, lifecycle);
    }

    /**
     * 128 bytes after the runner's own fields, which its thread writes on every item: without them the
     * next object in memory (often a channel both threads read on every item) shares their cache line.
     */
    @SuppressWarnings("unused")
    private static final class Padded extends NodeRunner {
        private long p00, p01, p02, p03, p04, p05, p06, p07;
        private long p10, p11, p12, p13, p14, p15, p16, p17;

        Padded(
                Vertex vertex,
                RunControl control,
                IdlePolicy idle,
                int cpuRequest,
                boolean cpuClaimed,
                NodeLifecycle<Node<?, ?>> lifecycle) {
            super(vertex, control, idle, cpuRequest, cpuClaimed, lifecycle);
        }
    }

    /** "node NAME", built before any out-of-memory: a fatal error's report must not need a new string. */
    private final String fatalErrorSite;

    private final Node<?, ?> node;
    private final int nodeId;
    /** The vertex's place in the graph: its slot in a checkpoint's states. */
    private final int index;

    private final RunControl control;
    private final IdlePolicy idle;
    /** The engine's door into the node's protected life-cycle methods, which only the engine holds. */
    private final NodeLifecycle<Node<?, ?>> lifecycle;

    private final int cpuRequest;
    /** {@link #cpuRequest} was claimed for this runner ({@code threadMapping("auto")}): released at its end. */
    private final boolean cpuClaimed;

    // the parts, chosen by wire() for the node's place in the graph, before the thread starts
    InputChannels in;
    OutputChannels out;
    /** Where svc's results and sendOut go; sendOutTo and the like name their channel. */
    OutputRouter router;
    /** A recoverable farm's emitter's redelivery, or null for any other node. */
    Redeliverer redeliverer;

    ItemLoop itemLoop;
    /** The run's checkpoints, or null without them. */
    private CheckpointCoordinator checkpoints;
    /** A source's last barrier sent: it sends one when {@link CheckpointCoordinator#requested} moves past it. */
    private long barrierSent;
    /** The node ended as it should and told the checkpoints so: its end gives no checkpoint up. */
    private boolean endedCleanly;

    // node-thread state
    RunPhase runPhase = RunPhase.RUNNING;
    /** The user call running, for failure reports: svcInit, svc, eosNotify, svcEnd. */
    private String phase = "svcInit";
    /** Incremental checkpoints are on and the node can write change sets: set at its restore. */
    private boolean incremental;
    /** The checkpoint of the node's previous snapshot, or -1 for none since it started. */
    private long previousSnapshot = -1;
    /** Change sets the node wrote since its last whole state. */
    private int changeSetsSinceWhole;
    /** The node's thread, as a plain field: read on every sendOut. */
    private Thread ownThread;

    // statistics, read after the thread ended (or while it runs, as a snapshot)
    private long itemsIn;
    private long startNanos;
    private long endNanos;
    private int cpu = -1;

    private NodeRunner(
            Vertex vertex,
            RunControl control,
            IdlePolicy idle,
            int cpuRequest,
            boolean cpuClaimed,
            NodeLifecycle<Node<?, ?>> lifecycle) {
        super(vertex.name());
        this.lifecycle = lifecycle;
        this.fatalErrorSite = "node " + name;
        this.node = vertex.node();
        this.nodeId = vertex.id();
        this.index = vertex.index();
        this.control = control;
        this.idle = idle;
        this.cpuRequest = cpuRequest;
        this.cpuClaimed = cpuClaimed;
    }

    /** The per-item loop a node runs, chosen once by its inputs and its part in an ordered farm. */
    enum ItemLoop {
        /** No inputs: svc(null) until the node ends. */
        PRODUCE,
        /** No inputs, with checkpoints: a barrier before the next svc(null) when one is asked for. */
        PRODUCE_CHECKPOINTED,
        /** Plain items only. */
        CONSUME,
        /** Chunks from a bridge to unroll. */
        CONSUME_UNROLLING,
        /** An ordered farm worker's first stage: a task mark after each item (unrolling any chunk). */
        CONSUME_MARKING
    }

    /**
     * Connects the runner to its channels and picks its parts for them; once, before its thread starts
     * and after every runner of the graph exists (a channel's other end is read here). The node's part in
     * an ordered farm ({@code orderRole}) is read here only: it picks the router, the gate, the end hook,
     * what a task mark taken does and the item loop, so no later path asks for it.
     */
    public void wire(
            SpscChannel[] forwardIn,
            SpscChannel[] feedbackIn,
            SpscChannel[] forwardOut,
            SpscChannel[] feedbackOut,
            Vertex.OrderRole orderRole,
            SpscChannel orderChannel,
            OnDemandDispatch dispatch) {
        boolean records = orderRole == Vertex.OrderRole.RECORD;
        boolean collects = orderRole == Vertex.OrderRole.COLLECT;
        SpscChannel orderOut = records ? orderChannel : null;
        SpscChannel orderIn = collects ? orderChannel : null;

        this.out = OutputChannels.create(
                this,
                control,
                this,
                name,
                idle,
                forwardOut,
                feedbackOut,
                orderOut,
                dispatch,
                records ? EndHook.orderEnd(orderOut) : EndHook.NONE);
        Redelivery redelivery = control.hooks.recovery().redeliveryFor(name);
        this.redeliverer = redelivery == null ? null : new Redeliverer(name, control, out, redelivery);
        this.router = OutputRouter.of(out, orderOut, redeliverer, control.hooks.newItemFilter());
        if (redeliverer != null) {
            redeliverer.resendThrough(router);
        }
        TaskMarks marks = orderRole == Vertex.OrderRole.PASS_MARKS ? out::sendMarks : TaskMarks.DROP;
        this.in = InputChannels.create(
                this,
                this,
                control,
                idle,
                forwardIn,
                feedbackIn,
                orderIn,
                redeliverer != null ? redeliverer : IdleHook.NONE,
                marks);
        InputGate gate = plainGate(in);
        if (collects) {
            gate = new OrderedInputs(in, control, orderIn, gate);
        }
        TakeRecorder takes =
                in.inputs.length == 0 ? null : control.hooks.recovery().takeRecorderFor(name);
        in.gate(takes == null ? gate : new RecordedInputs(gate, in, takes));
        checkpoints = control.checkpoints;
        if (checkpoints != null && in.inputs.length > 0) {
            in.alignment = new BarrierAlignment(in, this, checkpoints.mode == CheckpointMode.EXACTLY_ONCE);
        }
        if (in.inputs.length == 0) {
            itemLoop = checkpoints == null ? ItemLoop.PRODUCE : ItemLoop.PRODUCE_CHECKPOINTED;
        } else if (orderRole == Vertex.OrderRole.MARK) {
            itemLoop = ItemLoop.CONSUME_MARKING;
        } else if (in.receivesChunks()) {
            itemLoop = ItemLoop.CONSUME_UNROLLING;
        } else {
            itemLoop = ItemLoop.CONSUME;
        }
    }

    @Override
    public SpscChannel[] inputs() {
        return in.inputs;
    }

    @Override
    protected SpscChannel[] consumed() {
        return in == null ? null : in.consumed();
    }

    @Override
    protected SpscChannel[] produced() {
        return out == null ? null : out.produced();
    }

    /** A node's items arrive one per slot (a chunk it sends is an item like any other). */
    @Override
    public boolean sendsChunks() {
        return false;
    }

    /** The gate for {@code in}'s inputs: null for a source (which takes nothing), one input, several in turn. */
    static InputGate plainGate(InputChannels in) {
        return switch (in.inputs.length) {
            case 0 -> null;
            case 1 -> new SingleInput(in, in.inputs[0]);
            default -> new RoundRobinInputs(in);
        };
    }

    // ---- NodeLife: what the sides ask of the runner ----

    @Override
    public boolean isRunning() {
        return runPhase == RunPhase.RUNNING;
    }

    @Override
    public void requestStop() {
        runPhase = runPhase.stopRequested();
    }

    @Override
    public void inputEnded(int channel, boolean last) throws Exception {
        phase = "eosNotify";
        lifecycle.inputEnded(node, channel, last);
        phase = "svc";
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        ownThread = thread;
        startNanos = System.nanoTime();
        try {
            cpu = cpuClaimed ? Affinity.pinClaimed(cpuRequest, control) : Affinity.pin(cpuRequest, name, control);
            lifecycle.bind(node, this, nodeId);
            if (checkpoints != null && checkpoints.endedInRestored(name)) {
                byte[] endState = checkpoints.restoredState(name);
                if (endState == null) {
                    endAsRestored();
                } else {
                    endAsRestoredSink(endState);
                }
                return;
            }
            lifecycle.svcInit(node);
            if (checkpoints != null) {
                restore();
            }
            phase = "svc";
            switch (itemLoop) {
                case PRODUCE -> {
                    while (produceBatch()) {
                        // next batch
                    }
                }
                case PRODUCE_CHECKPOINTED -> {
                    while (produceCheckpointedBatch()) {
                        // next batch
                    }
                }
                case CONSUME -> {
                    startFeedbackOnlyLoop();
                    while (consumeBatch()) {
                        // next batch
                    }
                }
                case CONSUME_UNROLLING, CONSUME_MARKING -> {
                    startFeedbackOnlyLoop();
                    boolean marking = itemLoop == ItemLoop.CONSUME_MARKING;
                    while (consumeUnrollingBatch(marking)) {
                        // next batch
                    }
                }
            }
            control.checkCancelled(); // a cancelled node sends no EOS and runs no svcEnd
            phase = "svc";
            if (redeliverer != null) {
                redeliverer.awaitSettled();
            }
            out.sendEos();
            markEnded();
            // A sink's state after its last item holds what it has still to commit: every later checkpoint
            // keeps it, and a restart restores it before the sink's svcEnd. A node with outputs keeps
            // nothing: all it sent is in its consumers' states.
            byte[] endState = null;
            if (checkpoints != null
                    && out.forwardOut.length == 0
                    && NodeStates.hasState(node)
                    && checkpoints.checkpointsAfterThisEnd()) {
                phase = "snapshot";
                endState = NodeStates.snapshot(node, checkpoints.endSnapshotId());
            }
            phase = "svcEnd";
            lifecycle.bind(node, new EndedContext(this), nodeId);
            lifecycle.svcEnd(node);
            if (checkpoints != null) {
                checkpoints.finished(index, endState);
                endedCleanly = true;
            }
        } catch (Cancelled cancelled) {
            // another node failed first; it is the one reported
        } catch (PhaseFailure f) {
            failOrHalt(f.phase(), unwrap(f.getCause()));
        } catch (Throwable t) {
            failOrHalt(phase, unwrap(t));
        } finally {
            if (cpuClaimed) {
                Affinity.release(cpuRequest);
            }
            if (checkpoints != null && !endedCleanly) {
                checkpoints.runnerEnded();
            }
            markEnded();
            lifecycle.bind(node, null, nodeId);
            endNanos = System.nanoTime();
            control.runnerEnded();
        }
    }

    /** The head of a feedback loop with no other input starts the loop with svc(null). */
    private void startFeedbackOnlyLoop() throws Exception {
        if (in.forwardInputs == 0) {
            callSvc(null);
        }
    }

    /*
     * The per-item loops live in small methods that return every BATCH items: the JIT then compiles them
     * whole, with svc and the channel calls inlined, instead of on-stack-replacing the long run() loop.
     */
    private static final int BATCH = 1024;

    /** A source: up to BATCH calls of svc(null); false once the node ended. */
    private boolean produceBatch() throws Exception {
        redeliverPending();
        for (int i = 0; i < BATCH; i++) {
            if (runPhase != RunPhase.RUNNING || control.cancelled) {
                return false;
            }
            callSvc(null);
        }
        return runPhase == RunPhase.RUNNING;
    }

    /** {@link #produceBatch} with a barrier sent before the call that follows a checkpoint's request. */
    private boolean produceCheckpointedBatch() throws Exception {
        final CheckpointCoordinator checkpoints = this.checkpoints;
        for (int i = 0; i < BATCH; i++) {
            if (runPhase != RunPhase.RUNNING || control.cancelled) {
                return false;
            }
            // A volatile read per call: the coordinator's request made before it is seen by the next call.
            long requested = checkpoints.requested;
            if (requested != barrierSent) {
                barrierSent = requested;
                checkpoint(new CheckpointBarrier(requested), 0);
            }
            callSvc(null);
        }
        return runPhase == RunPhase.RUNNING;
    }

    /**
     * A node the checkpoint saw ended: everything it sent is in the others' states, so it calls nothing of
     * the node's own (no svcInit, svc, eosNotify or svcEnd), drops what its producers still send, as an
     * ended node does, and sends its end at once.
     */
    private void endAsRestored() {
        out.sendEos();
        markEnded();
        checkpoints.finished(index);
        endedCleanly = true;
    }

    /**
     * A sink the checkpoint saw ended, with the state it ended with: svcInit, that state restored, svcEnd,
     * as the sink that took every item before its end ran them; later checkpoints keep the state.
     */
    private void endAsRestoredSink(byte[] endState) throws Exception {
        markEnded();
        lifecycle.svcInit(node);
        phase = "restore";
        NodeStates.restore(node, endState);
        phase = "svcEnd";
        lifecycle.bind(node, new EndedContext(this), nodeId);
        lifecycle.svcEnd(node);
        checkpoints.finished(index, endState);
        endedCleanly = true;
    }

    /**
     * The node's state from the checkpoint the run starts from, after svcInit, before the first item; then,
     * with incremental checkpoints, the node notes its changes from here on.
     */
    private void restore() throws Exception {
        List<byte[]> chain = checkpoints.restoredChain(name);
        if (!chain.isEmpty()) {
            phase = "restore";
            NodeStates.restore(node, chain);
        }
        incremental = checkpoints.fullCheckpointEvery() > 1 && NodeStates.incremental(node);
        if (incremental) {
            NodeStates.trackChanges(node);
        }
    }

    /**
     * Aligned on {@code barrier}: snapshot, hand the state to the coordinator, send the barrier on. With
     * incremental checkpoints the snapshot holds changes only while the node's previous one went into the
     * last completed checkpoint (a restore, or a checkpoint given up, makes the next one whole), and is
     * whole once in {@code fullCheckpointEvery}.
     */
    @Override
    public void checkpoint(CheckpointBarrier barrier, long alignmentNanos) throws Exception {
        String was = phase;
        phase = "snapshot";
        boolean changesOnly = incremental
                && previousSnapshot >= 0
                && previousSnapshot == checkpoints.lastCompletedId()
                && changeSetsSinceWhole + 1 < checkpoints.fullCheckpointEvery();
        byte[] state = NodeStates.snapshot(node, barrier.id(), changesOnly);
        phase = was;
        checkpoints.acknowledge(index, barrier.id(), state, changesOnly ? previousSnapshot : -1, alignmentNanos);
        previousSnapshot = barrier.id();
        changeSetsSinceWhole = changesOnly ? changeSetsSinceWhole + 1 : 0;
        out.sendBarrier(barrier);
    }

    public Node<?, ?> node() {
        return node;
    }

    /**
     * A recoverable farm's emitter sends a lost worker's items again between batches (and while it waits
     * for input, through its idle hook); one test per batch for every other node.
     */
    private void redeliverPending() {
        if (redeliverer != null) {
            redeliverer.redeliverPending();
        }
    }

    /** Up to BATCH input items through svc; false once the stream is over or the node ended. */
    private boolean consumeBatch() throws Exception {
        redeliverPending();
        final InputChannels in = this.in;
        for (int i = 0; i < BATCH; i++) {
            if (runPhase != RunPhase.RUNNING || control.cancelled) {
                return false;
            }
            Object item = in.next();
            if (item == null) {
                return false;
            }
            itemsIn++;
            callSvc(item);
        }
        return runPhase == RunPhase.RUNNING;
    }

    /**
     * {@link #consumeBatch} for a node that gets a bridge's chunks: each unrolled, as if its items had
     * come alone; the rest is dropped if the node ends. With {@code marking} (the first stage of an ordered
     * farm's worker) the node sends a task mark after each task, which tells the collector the task's
     * results are all out; each item of a chunk is a task of its own (a remote worker's). A node fed by no
     * bridge never sees a chunk, so {@link #consumeBatch} stays the loop without these tests.
     */
    private boolean consumeUnrollingBatch(boolean marking) throws Exception {
        final InputChannels in = this.in;
        for (int i = 0; i < BATCH; i++) {
            if (runPhase != RunPhase.RUNNING || control.cancelled) {
                return false;
            }
            Object item = in.next();
            if (item == null) {
                return false;
            }
            if (item instanceof Chunk chunk) {
                Object[] items = chunk.items;
                for (int k = 0, n = chunk.size; k < n && runPhase == RunPhase.RUNNING && !control.cancelled; k++) {
                    consumeOne(items[k], marking);
                }
            } else {
                consumeOne(item, marking);
            }
        }
        return runPhase == RunPhase.RUNNING;
    }

    private void consumeOne(Object item, boolean marking) throws Exception {
        itemsIn++;
        callSvc(item);
        if (marking && runPhase == RunPhase.RUNNING) {
            out.sendMarks();
        }
    }

    /** A node's failure fails the run; an out-of-memory or another JVM error halts the JVM (see FatalErrors). */
    private void failOrHalt(String failedPhase, Throwable cause) {
        if (FatalErrors.isFatal(cause)) {
            FatalErrors.halt(fatalErrorSite, cause);
        }
        control.fail(name, failedPhase, cause);
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CheckedSvcException && t.getCause() != null ? t.getCause() : t;
    }

    private void callSvc(Object item) throws Exception {
        Object result = lifecycle.svc(node, item);
        if (result == Sentinel.GO_ON) {
            // nothing to send
        } else if (result == Sentinel.EOS) {
            runPhase = runPhase.stopRequested();
        } else { // never null: Node.call turns a bare null into an error naming the node
            router.emit(result);
        }
    }

    /** Tells both sides this node is done: consumers stop waiting for it, producers stop feeding it. */
    private void markEnded() {
        if (runPhase != RunPhase.ENDED) {
            runPhase = RunPhase.ENDED;
            endChannels();
        }
    }

    // ---- NodeContext: what the running node sees of its runner ----

    @Override
    public void emit(Object item) {
        checkOwnThread("sendOut");
        router.emit(item);
    }

    /**
     * A channel has one producer: the node's thread. Sending from another thread (a callback, a pool
     * inside svc) would corrupt the SPSC queue silently, so it is refused loudly instead.
     */
    final void checkOwnThread(String call) {
        if (Thread.currentThread() != ownThread) {
            refuseForeignThread(call);
        }
    }

    /** The misuse also fails the run, so that a callback swallowing the exception cannot hide it. */
    private void refuseForeignThread(String call) {
        IllegalStateException misuse = new IllegalStateException(call + " on node " + name + " from thread "
                + Thread.currentThread().getName() + ": a node sends only from its own thread"
                + " (in svcInit, svc or eosNotify), its channels are single-producer");
        control.fail(name, call + " from another thread", misuse);
        throw misuse;
    }

    private SpscChannel forwardChannel(int channel, String call) {
        SpscChannel[] forwardOut = out.forwardOut;
        if (channel < 0 || channel >= forwardOut.length) {
            throw new IndexOutOfBoundsException(call + ": channel " + channel + " does not exist; node " + name
                    + " has " + forwardOut.length + " forward output channel(s)");
        }
        return forwardOut[channel];
    }

    @Override
    public void emitTo(Object item, int channel) {
        checkOwnThread("sendOutTo");
        router.putTo(forwardChannel(channel, "sendOutTo"), item, channel);
    }

    @Override
    public void emitFeedback(Object item, int channel) {
        checkOwnThread("sendFeedbackTo");
        SpscChannel[] feedbackOut = out.feedbackOut;
        if (channel < 0 || channel >= feedbackOut.length) {
            throw new IndexOutOfBoundsException("sendFeedbackTo: channel " + channel + " does not exist; node " + name
                    + " has " + feedbackOut.length + " feedback output channel(s)");
        }
        router.putTo(feedbackOut[channel], item, -1);
    }

    @Override
    public void broadcast(Object item) {
        checkOwnThread("broadcast");
        SpscChannel[] forwardOut = out.forwardOut;
        for (int i = 0; i < forwardOut.length; i++) {
            router.putTo(forwardOut[i], item, i);
        }
    }

    /**
     * {@code sendOut(eos())}. A plain node ends after the current call. A loop head (a node with
     * feedback inputs) does what FastFlow's "send EOS and keep listening" idiom does: EOS goes out on its
     * forward outputs now, its forward inputs are closed, and it goes on taking fed-back items, so the
     * results still in flight in the loop reach it; it ends once every feedback producer has ended.
     * (Returning {@code eos()} from {@code svc} ends even a loop head at once.)
     */
    @Override
    public void requestEnd() {
        if (!in.hasFeedback()) {
            requestStop();
            return;
        }
        if (out.eosSent()) {
            return;
        }
        out.sendEos();
        in.closeForward(); // no eosNotify: the node chose to end its stream
        VarHandle.fullFence(); // the closed marks before the wake-ups
        in.wakeForwardProducers();
    }

    @Override
    public int inputChannel() {
        return in.currentChannel;
    }

    @Override
    public void holdInput(int channel, boolean hold) {
        in.hold(channel, hold);
    }

    @Override
    public boolean cancelled() {
        return control.cancelled;
    }

    @Override
    public boolean fromFeedback() {
        return in.currentFeedback;
    }

    @Override
    public int inputChannels() {
        return in.forwardInputs;
    }

    @Override
    public int feedbackInputChannels() {
        return in.inputs.length - in.forwardInputs;
    }

    @Override
    public int outputChannels() {
        return out.forwardOut.length;
    }

    @Override
    public int feedbackOutputChannels() {
        return out.feedbackOut.length;
    }

    @Override
    public NodeStats stats() {
        long total = Math.max(0, endNanos - startNanos);
        long blockedIn = in == null ? 0 : in.blockedNanosNow();
        long blockedOut = out == null ? 0 : out.blockedNanosNow();
        long svc = Math.max(0, total - blockedIn - blockedOut);
        long itemsOut = out == null ? 0 : out.itemsOut;
        return new NodeStats(name, itemsIn, itemsOut, svc, blockedIn, blockedOut, cpu, counts(node));
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

    @Override
    public String toString() {
        return name;
    }
}
