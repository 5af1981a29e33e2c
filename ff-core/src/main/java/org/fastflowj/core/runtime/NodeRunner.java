package org.fastflowj.core.runtime;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.spi.CheckedSvcException;
import org.fastflowj.core.spi.NodeContext;
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
 * graph, so the per-item loop tests no mode: an {@link InputGate} (one input, several in turn, or an
 * ordered farm's recorded order), an {@link OutputRouter} (none, one, round-robin, on-demand, recorded),
 * the channel work both share ({@link InputChannels}, {@link OutputChannels}), the waits ({@link
 * RunnerWaits}, on this runner as its {@link Parker}). Its
 * state lives in one padded block ({@link RunnerState}); where it is in its life is a {@link RunPhase},
 * its forward outputs an {@link OutputSide}, each channel's ends {@link SpscChannel.Intake} and {@link
 * SpscChannel.Outflow}.
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
class NodeRunner extends RunnerState implements NodeContext {
    /**
     * A runner padded at its end too: what the executor creates (see {@link Padded}). {@code cpuClaimed}:
     * {@code cpuRequest} came from {@link Affinity#claim}, released when the thread ends.
     */
    static NodeRunner create(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest, boolean cpuClaimed) {
        return new Padded(vertex, control, idle, cpuRequest, cpuClaimed);
    }

    /**
     * 128 bytes after the runner's own fields, which its thread writes on every item: without them the
     * next object in memory (often a channel both threads read on every item) shares their cache line.
     */
    @SuppressWarnings("unused")
    private static final class Padded extends NodeRunner {
        private long p00, p01, p02, p03, p04, p05, p06, p07;
        private long p10, p11, p12, p13, p14, p15, p16, p17;

        Padded(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest, boolean cpuClaimed) {
            super(vertex, control, idle, cpuRequest, cpuClaimed);
        }
    }

    private NodeRunner(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest, boolean cpuClaimed) {
        super(vertex, control, idle, cpuRequest, cpuClaimed);
    }

    /**
     * Connects the runner to its channels and picks its parts for them; once, before its thread starts
     * and after every runner of the graph exists (a channel's other end is read here).
     */
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
        this.liveForwardOutputs = dispatch != null ? 1 : forwardOut.length; // staging stands for all slots
        this.orderChannel = orderChannel;
        this.dispatch = dispatch;
        this.currentFeedback = forwardIn.length == 0 && feedbackIn.length == 1; // fixed for one input

        boolean shortOutputs = false;
        if (dispatch == null) {
            for (SpscChannel ch : defaultOut) {
                shortOutputs |= ch.limit <= IdlePolicy.SHORT_CHANNEL;
            }
        }
        boolean shortInputs = false;
        boolean chunksIn = false; // only a bridge sends chunks
        List<SpscChannel> dispatched = new ArrayList<>();
        for (SpscChannel ch : forwardIn) {
            if (ch.dispatch != null) {
                dispatched.add(ch);
            }
            shortInputs |= ch.limit <= IdlePolicy.SHORT_CHANNEL;
        }
        for (SpscChannel ch : inputs) {
            chunksIn |= ch.producer.sendsChunks();
        }
        this.dispatchedInputs = dispatched.toArray(new SpscChannel[0]);
        IdlePolicy shortIdle = idle.forShortChannels();
        // A node fed by a receiving bridge keeps the common spins: its items come in socket-read bursts,
        // and a sink that parks between two bursts of small messages is woken once per burst, late.
        this.inputIdler = new IdleStrategy(shortInputs ? shortIdle : chunksIn ? idle : idle.forLongInputs());
        this.outputIdler = new IdleStrategy(shortOutputs ? shortIdle : idle);

        this.in = new InputChannels(this);
        this.out = new OutputChannels(this);
        this.waits = new RunnerWaits(this);
        Redelivery redelivery = control.hooks.redeliveryFor(name);
        this.redeliverer = redelivery == null ? null : new Redeliverer(this, redelivery);
        this.router = OutputRouter.of(this);
        TakeRecorder takes = inputs.length == 0 ? null : control.hooks.takeRecorderFor(name);
        this.gate = takes == null ? inputGate(this) : new RecordedInputs(inputGate(this), this, takes);
        idleHook = redeliverer != null ? redeliverer : IdleHook.NONE;
        if (inputs.length == 0) {
            itemLoop = ItemLoop.PRODUCE;
        } else if (chunksIn || orderRole == Vertex.OrderRole.MARK) {
            itemLoop = ItemLoop.CONSUME_UNROLLING;
        } else {
            itemLoop = ItemLoop.CONSUME;
        }
    }

    @Override
    SpscChannel[] inputs() {
        return inputs;
    }

    /** A node's items arrive one per slot (a chunk it sends is an item like any other). */
    @Override
    boolean sendsChunks() {
        return false;
    }

    /** The input gate for {@code r}'s inputs and order role (null for a source, which takes nothing). */
    static InputGate inputGate(RunnerState r) {
        InputGate plain =
                switch (r.inputs.length) {
                    case 0 -> null;
                    case 1 -> new SingleInput(r, r.inputs[0]);
                    default -> new RoundRobinInputs(r);
                };
        return r.orderRole == Vertex.OrderRole.COLLECT ? new OrderedInputs(r, plain) : plain;
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        ownThread = thread;
        startNanos = System.nanoTime();
        try {
            cpu = cpuClaimed ? Affinity.pinClaimed(cpuRequest, control) : Affinity.pin(cpuRequest, name, control);
            access.bind(node, this, nodeId);
            access.svcInit(node);
            phase = "svc";
            switch (itemLoop) {
                case PRODUCE -> {
                    while (produceBatch()) {
                        // next batch
                    }
                }
                case CONSUME -> {
                    startFeedbackOnlyLoop();
                    while (consumeBatch()) {
                        // next batch
                    }
                }
                case CONSUME_UNROLLING -> {
                    startFeedbackOnlyLoop();
                    while (consumeUnrollingBatch()) {
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
            phase = "svcEnd";
            access.bind(node, new EndedContext(this), nodeId);
            access.svcEnd(node);
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
            markEnded();
            access.bind(node, null, nodeId);
            endNanos = System.nanoTime();
            control.runnerEnded();
        }
    }

    /** The head of a feedback loop with no other input starts the loop with svc(null). */
    private void startFeedbackOnlyLoop() throws Exception {
        if (forwardInputs == 0) {
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
        for (int i = 0; i < BATCH; i++) {
            if (runPhase != RunPhase.RUNNING || control.cancelled) {
                return false;
            }
            Object item = gate.next();
            if (item == null) {
                return false;
            }
            itemsIn++;
            callSvc(item);
        }
        return runPhase == RunPhase.RUNNING;
    }

    /**
     * {@link #consumeBatch} for a node that gets a bridge's chunks (each unrolled, as if its items had
     * come alone; the rest is dropped if the node ends), or that marks the end of each task for an
     * ordered farm's collector.
     */
    private boolean consumeUnrollingBatch() throws Exception {
        final boolean marks = orderRole == Vertex.OrderRole.MARK;
        for (int i = 0; i < BATCH; i++) {
            if (runPhase != RunPhase.RUNNING || control.cancelled) {
                return false;
            }
            Object item = gate.next();
            if (item == null) {
                return false;
            }
            if (item instanceof Chunk chunk) {
                Object[] items = chunk.items;
                for (int k = 0, n = chunk.size; k < n && runPhase == RunPhase.RUNNING && !control.cancelled; k++) {
                    itemsIn++;
                    callSvc(items[k]);
                    if (marks && runPhase == RunPhase.RUNNING) {
                        out.sendMarks(); // each item of a chunk is a task of its own (a remote worker's)
                    }
                }
                continue;
            }
            itemsIn++;
            callSvc(item);
            if (marks && runPhase == RunPhase.RUNNING) {
                out.sendMarks();
            }
        }
        return runPhase == RunPhase.RUNNING;
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
        Object result = access.svc(node, item);
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
        if (runPhase == RunPhase.ENDED) {
            return;
        }
        runPhase = RunPhase.ENDED;
        if (inputs == null) {
            return; // never wired: no channel to mark
        }
        for (SpscChannel ch : forwardOut) {
            ch.producerDone = true;
        }
        for (SpscChannel ch : feedbackOut) {
            ch.producerDone = true;
        }
        if (orderRole == Vertex.OrderRole.RECORD) {
            orderChannel.producerDone = true;
        } else if (orderRole == Vertex.OrderRole.COLLECT) {
            orderChannel.consumerGone = true;
        }
        for (SpscChannel ch : inputs) {
            ch.consumerGone = true;
        }
        VarHandle.fullFence();
        for (SpscChannel ch : forwardOut) {
            ch.consumer.wakeAnyway();
        }
        for (SpscChannel ch : feedbackOut) {
            ch.consumer.wakeAnyway();
        }
        if (orderRole == Vertex.OrderRole.RECORD) {
            orderChannel.consumer.wakeAnyway();
        } else if (orderRole == Vertex.OrderRole.COLLECT) {
            orderChannel.producer.wakeAnyway();
        }
        for (SpscChannel ch : inputs) {
            ch.producer.wakeAnyway();
        }
        for (SpscChannel ch : dispatchedInputs) {
            ch.dispatch.consumerEnded();
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
        if (channel < 0 || channel >= feedbackOut.length) {
            throw new IndexOutOfBoundsException("sendFeedbackTo: channel " + channel + " does not exist; node " + name
                    + " has " + feedbackOut.length + " feedback output channel(s)");
        }
        router.putTo(feedbackOut[channel], item, -1);
    }

    @Override
    public void broadcast(Object item) {
        checkOwnThread("broadcast");
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
        if (inputs.length == forwardInputs) {
            runPhase = runPhase.stopRequested();
            return;
        }
        if (outputSide == OutputSide.EOS_SENT) {
            return;
        }
        out.sendEos();
        for (int i = 0; i < forwardInputs; i++) {
            SpscChannel ch = inputs[i];
            ch.intake = SpscChannel.Intake.ENDED; // no eosNotify: the node chose to end its stream
            ch.consumerGone = true;
        }
        liveForward = 0;
        VarHandle.fullFence();
        for (int i = 0; i < forwardInputs; i++) {
            inputs[i].producer.wakeAnyway();
        }
    }

    @Override
    public int inputChannel() {
        return currentChannel;
    }

    @Override
    public boolean cancelled() {
        return control.cancelled;
    }

    @Override
    public boolean fromFeedback() {
        return currentFeedback;
    }

    @Override
    public int inputChannels() {
        return forwardInputs;
    }

    @Override
    public int feedbackInputChannels() {
        return inputs.length - forwardInputs;
    }

    @Override
    public int outputChannels() {
        return forwardOut.length;
    }

    @Override
    public int feedbackOutputChannels() {
        return feedbackOut.length;
    }

    @Override
    public String toString() {
        return name;
    }
}
