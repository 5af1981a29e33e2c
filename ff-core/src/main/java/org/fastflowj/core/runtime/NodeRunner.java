package org.fastflowj.core.runtime;

import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.graph.Vertex;

/**
 * The loop of one node thread: take an item from an input channel, run {@code svc}, put the results on
 * output channels; wait by the run's {@link IdlePolicy} when inputs are empty or outputs full.
 *
 * <pre>
 *   inputs (forward 0..f-1, feedback f..)        outputs (forward, feedback)
 *   ──▶ SPSC ─┐                               ┌─▶ SPSC ──▶   round-robin / on-demand,
 *   ──▶ SPSC ─┼─▶ poll, one per channel ─▶ svc ┼─▶ SPSC ──▶   or chosen by the node
 *   ──▶ SPSC ─┘   in turn                     └─▶ SPSC ──▶
 * </pre>
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
class NodeRunner extends ParkingStatePadAfter implements Runnable, NodeContext {
    private static final Object[] ORDER_INDEX = new Object[4096];

    static {
        for (int i = 0; i < ORDER_INDEX.length; i++) {
            ORDER_INDEX[i] = i;
        }
    }

    final String name;
    private final Node<?, ?> node;
    private final int nodeId;
    private final RunControl control;
    private final IdlePolicy idle;
    private final IdlePolicy shortIdle;
    private final NodeAccess access = NodeAccess.get();
    private final Vertex.OrderRole orderRole;
    private final int cpuRequest;

    /** Whether this node's default outputs / forward inputs are short (on-demand) channels. */
    private boolean shortOutputs;
    private boolean shortInputs;
    private SpscChannel[] inputs;
    private int forwardInputs;
    private SpscChannel[] forwardOut;
    private SpscChannel[] feedbackOut;
    private SpscChannel[] defaultOut;
    private SpscChannel orderChannel;
    /** Set when this node's default outputs are on-demand slots: items go through its staging channel. */
    private OnDemandDispatch dispatch;
    /** Forward inputs that are on-demand slots of some dispatch, which this node runs when they are empty. */
    private SpscChannel[] dispatchedInputs;
    private boolean endMarked;

    // node-thread state
    private int liveForward;
    private int liveForwardOutputs;
    private int cursor;
    private int nextOut;
    private int currentChannel;
    private boolean currentFeedback;
    private boolean endRequested;
    private int orderWorker = -1;
    private boolean orderDrained;
    private int sinceFence;
    private String phase = "svcInit";
    /** EOS went out on the forward outputs (at the end, or early by a loop head's sendOut(eos())). */
    private boolean forwardEnded;
    /** The node's thread, as a plain field: read on every sendOut. */
    private Thread ownThread;

    // statistics, read after the thread ended
    private long itemsIn;
    private long itemsOut;
    private long blockedInNanos;
    private long blockedOutNanos;
    private long startNanos;
    private long endNanos;
    private int cpu = -1;

    /** A runner padded at its end too: what the executor creates (see {@link Padded}). */
    static NodeRunner create(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest) {
        return new Padded(vertex, control, idle, cpuRequest);
    }

    /**
     * 128 bytes after the runner's own fields, which its thread writes on every item: without them the
     * next object in memory (often a channel both threads read on every item) shares their cache line.
     */
    @SuppressWarnings("unused")
    private static final class Padded extends NodeRunner {
        private long p00, p01, p02, p03, p04, p05, p06, p07;
        private long p10, p11, p12, p13, p14, p15, p16, p17;

        Padded(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest) {
            super(vertex, control, idle, cpuRequest);
        }
    }

    private NodeRunner(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest) {
        this.name = vertex.name();
        this.node = vertex.node();
        this.nodeId = vertex.id();
        this.control = control;
        this.idle = idle;
        this.shortIdle = idle.forShortChannels();
        this.orderRole = vertex.orderRole();
        this.cpuRequest = cpuRequest;
    }

    void wire(SpscChannel[] forwardIn, SpscChannel[] feedbackIn, SpscChannel[] forwardOut, SpscChannel[] feedbackOut,
            SpscChannel orderChannel, OnDemandDispatch dispatch) {
        this.inputs = new SpscChannel[forwardIn.length + feedbackIn.length];
        System.arraycopy(forwardIn, 0, inputs, 0, forwardIn.length);
        System.arraycopy(feedbackIn, 0, inputs, forwardIn.length, feedbackIn.length);
        this.forwardInputs = forwardIn.length;
        this.liveForward = forwardIn.length;
        this.forwardOut = forwardOut;
        this.feedbackOut = feedbackOut;
        this.defaultOut = forwardOut.length > 0 ? forwardOut : feedbackOut;
        this.liveForwardOutputs = forwardOut.length;
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
    }

    // ------------------------------------------------------------------ life cycle

    @Override
    public void run() {
        thread = Thread.currentThread();
        ownThread = thread;
        startNanos = System.nanoTime();
        try {
            cpu = Affinity.pin(cpuRequest, name, control);
            access.bind(node, this, nodeId);
            access.svcInit(node);
            phase = "svc";
            if (inputs.length == 0) {
                while (produceBatch()) {
                    // next batch
                }
            } else {
                if (forwardInputs == 0) {
                    callSvc(null); // head of a feedback loop with no other input: start the loop
                }
                while (consumeBatch()) {
                    // next batch
                }
            }
            control.checkCancelled(); // a cancelled node sends no EOS and runs no svcEnd
            phase = "svc";
            sendEos();
            markEnded();
            phase = "svcEnd";
            access.bind(node, new EndedContext(this), nodeId);
            access.svcEnd(node);
        } catch (Cancelled cancelled) {
            // another node failed first; it is the one reported
        } catch (PhaseFailure f) {
            control.fail(name, f.phase(), unwrap(f.getCause()));
        } catch (Throwable t) {
            control.fail(name, phase, unwrap(t));
        } finally {
            markEnded();
            access.bind(node, null, nodeId);
            endNanos = System.nanoTime();
        }
    }

    /*
     * The per-item loops live in small methods that return every BATCH items: the JIT then compiles them
     * whole, with svc and the channel calls inlined, instead of on-stack-replacing the long run() loop.
     */
    private static final int BATCH = 1024;

    /** A source: up to BATCH calls of svc(null); false once the node ended. */
    private boolean produceBatch() throws Exception {
        for (int i = 0; i < BATCH; i++) {
            if (endRequested || control.cancelled) {
                return false;
            }
            callSvc(null);
        }
        return !endRequested;
    }

    /** Up to BATCH input items through svc; false once the stream is over or the node ended. */
    private boolean consumeBatch() throws Exception {
        for (int i = 0; i < BATCH; i++) {
            if (endRequested || control.cancelled) {
                return false;
            }
            Object item = nextItem();
            if (item == null) {
                return false;
            }
            itemsIn++;
            callSvc(item);
        }
        return !endRequested;
    }

    private static Throwable unwrap(Throwable t) {
        return t instanceof CheckedSvcException && t.getCause() != null ? t.getCause() : t;
    }

    private void callSvc(Object item) throws Exception {
        Object result = access.svc(node, item);
        if (result == Sentinel.GO_ON) {
            // nothing to send
        } else if (result == Sentinel.EOS) {
            endRequested = true;
        } else { // never null: Node.call turns a bare null into an error naming the node
            emitResult(result);
        }
        if (orderRole == Vertex.OrderRole.MARK && item != null && !endRequested) {
            sendMarks();
        }
    }

    private void sendEos() {
        if (forwardEnded) {
            return;
        }
        forwardEnded = true;
        if (dispatch != null) {
            stage(Sentinel.EOS); // behind every staged item; the dispatch hands it to each slot
        } else {
            for (SpscChannel ch : forwardOut) {
                putControl(ch, Sentinel.EOS);
            }
        }
        if (orderRole == Vertex.OrderRole.RECORD) {
            putControl(orderChannel, Sentinel.ORDER_END);
        }
    }

    /** Tells both sides this node is done: consumers stop waiting for it, producers stop feeding it. */
    private void markEnded() {
        if (endMarked) {
            return;
        }
        endMarked = true;
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

    NodeStats stats() {
        long total = Math.max(0, endNanos - startNanos);
        long svc = Math.max(0, total - blockedInNanos - blockedOutNanos);
        return new NodeStats(name, itemsIn, itemsOut, svc, blockedInNanos, blockedOutNanos, cpu);
    }

    // ------------------------------------------------------------------ input side

    /** The next user item, or null when the stream is over for this node. */
    private Object nextItem() throws Exception {
        if (orderRole == Vertex.OrderRole.COLLECT && !orderDrained) {
            return nextInOrder();
        }
        final SpscChannel[] in = inputs;
        final int n = in.length;
        if (n == 1) {
            return nextFromOnlyInput(in[0]);
        }
        for (;;) {
            for (int k = 0; k < n; k++) {
                int i = cursor;
                cursor = i + 1 == n ? 0 : i + 1; // one item per channel in turn, as FastFlow's gatherer
                SpscChannel ch = in[i];
                Object item = ch.endSeen ? null : ch.poll();
                if (item == null) {
                    continue;
                }
                tookFrom(ch);
                if (item instanceof Sentinel) {
                    control(ch, i, item);
                    if (endRequested) {
                        return null;
                    }
                    continue;
                }
                currentFeedback = i >= forwardInputs;
                currentChannel = currentFeedback ? i - forwardInputs : i;
                return item;
            }
            if (streamOver() || endRequested) {
                return null;
            }
            if (dispatchedInputs.length == 0 || !refillSlots()) {
                awaitInput(null);
            }
        }
    }

    /** {@link #nextItem()} for the common single-input node: no cursor, channel index fixed in wire(). */
    private Object nextFromOnlyInput(SpscChannel ch) throws Exception {
        for (;;) {
            Object item = ch.endSeen ? null : ch.poll();
            if (item != null) {
                tookFrom(ch);
                if (!(item instanceof Sentinel)) {
                    return item;
                }
                control(ch, 0, item);
                if (endRequested) {
                    return null;
                }
            } else if (streamOver() || endRequested) {
                return null;
            } else if (dispatchedInputs.length == 0 || !refillSlots()) {
                awaitInput(null); // (refilling an on-demand slot is not a wait: it is not timed)
            }
        }
    }

    /** Ordered farm collector: read workers in the order the emitter recorded, one task at a time. */
    private Object nextInOrder() throws Exception {
        for (;;) {
            control.checkCancelled();
            if (orderWorker < 0) {
                Object next = orderChannel.poll();
                if (next == null) {
                    awaitInput(orderChannel);
                    continue;
                }
                tookFrom(orderChannel);
                if (next == Sentinel.ORDER_END) {
                    orderDrained = true;
                    return nextItem();
                }
                int worker = (Integer) next;
                if (inputs[worker].endSeen) {
                    continue; // that worker ended early: its remaining tasks are gone
                }
                orderWorker = worker;
            }
            SpscChannel ch = inputs[orderWorker];
            Object item = ch.poll();
            if (item == null) {
                awaitInput(ch);
                continue;
            }
            tookFrom(ch);
            if (item == Sentinel.TASK_DONE) {
                orderWorker = -1;
            } else if (item == Sentinel.EOS) {
                control(ch, orderWorker, item);
                orderWorker = -1;
                if (endRequested) {
                    return null;
                }
            } else {
                currentFeedback = false;
                currentChannel = orderWorker;
                return item;
            }
        }
    }

    private void control(SpscChannel ch, int index, Object signal) throws Exception {
        if (signal == Sentinel.EOS) {
            ch.endSeen = true;
            if (index < forwardInputs) {
                liveForward--;
                phase = "eosNotify";
                access.inputEnded(node, index, liveForward == 0);
                phase = "svc";
            }
        } else if (signal == Sentinel.TASK_DONE && orderRole == Vertex.OrderRole.PASS_MARKS) {
            sendMarks();
        }
    }

    /**
     * After a poll: wake the producer if it parked on this channel. A producer parks until half the
     * channel drained, so on a long channel looking every 16 items is soon enough, and keeps the
     * volatile read off most items; a short (on-demand) channel is looked at every time.
     */
    private void tookFrom(SpscChannel ch) {
        int n = ++sinceFence;
        if ((n & 15) == 0 || ch.limit <= IdlePolicy.SHORT_CHANNEL) {
            if ((n & 63) == 0) {
                VarHandle.fullFence(); // bounds the missed-wake-up race, see ParkingState
            }
            ParkingState producer = ch.producer;
            if (producer.state == WAIT_OUTPUT) {
                producer.wakeForRoom(ch);
            }
        }
    }

    private boolean streamOver() {
        if (liveForward > 0) {
            return false;
        }
        for (int i = forwardInputs; i < inputs.length; i++) {
            SpscChannel ch = inputs[i];
            if (!ch.producerDone || ch.hasItems()) {
                return false;
            }
        }
        return true;
    }

    private boolean inputReady(SpscChannel target) {
        if (target != null) {
            return target.hasItems() || target.producerDone;
        }
        for (SpscChannel ch : inputs) {
            if (!ch.endSeen && ch.hasItems()) {
                return true;
            }
        }
        return streamOver();
    }

    /**
     * The re-check before parking on empty inputs: a parked consumer is woken once a batch is queued (or
     * its producer stops), so it parks unless a batch is already there or the producer has stopped.
     */
    private boolean inputWorthWaking(SpscChannel target) {
        if (target != null) {
            return target.hasItems() || target.producerDone;
        }
        for (SpscChannel ch : inputs) {
            if (!ch.endSeen && ch.hasItems()
                    && (ch.worthWaking() || ch.producerDone || ch.producer.state != RUNNING)) {
                return true;
            }
        }
        for (SpscChannel ch : dispatchedInputs) {
            if (!ch.endSeen && ch.dispatch.hasWork()) {
                return true; // staged items: refill the slot instead of parking
            }
        }
        return streamOver();
    }

    /** Runs the dispatch of every empty on-demand input; true if that placed anything anywhere. */
    private boolean refillSlots() {
        boolean placed = false;
        for (SpscChannel ch : dispatchedInputs) {
            if (!ch.endSeen && !ch.hasItems()) {
                placed |= ch.dispatch.run(this);
            }
        }
        return placed;
    }

    private void awaitInput(SpscChannel target) {
        long start = System.nanoTime();
        for (int round = 0; !inputReady(target); round++) {
            control.checkCancelled();
            if (target == null && dispatchedInputs.length > 0 && refillSlots()) {
                continue;
            }
            pause(round, WAIT_INPUT, target);
        }
        blockedInNanos += System.nanoTime() - start;
    }

    // ------------------------------------------------------------------ output side

    @Override
    public void emit(Object item) {
        checkOwnThread("sendOut");
        emitResult(item);
    }

    /**
     * A channel has one producer: the node's thread. Sending from another thread (a callback, a pool
     * inside svc) would corrupt the SPSC queue silently, so it is refused loudly instead.
     */
    private void checkOwnThread(String call) {
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

    /** The default routing of an item, from svc's result or a checked sendOut. */
    private void emitResult(Object item) {
        if (dispatch != null) {
            if (forwardEnded) {
                throw alreadyEnded();
            }
            stage(item);
            return;
        }
        SpscChannel[] outs = defaultOut;
        if (outs.length == 1) {
            put(outs[0], item, 0);
        } else if (outs.length > 1) {
            route(item, outs);
        }
        // no output channel: the last stage's results are dropped, as in FastFlow
    }

    /** Round-robin (or on-demand): the first channel with room, starting after the last one used. */
    private void route(Object item, SpscChannel[] outs) {
        int n = outs.length;
        int start = nextOut;
        for (int k = 0; k < n; k++) {
            int i = start + k;
            if (i >= n) {
                i -= n;
            }
            SpscChannel ch = outs[i];
            if (!ch.goneSeen && ch.offer(item)) {
                nextOut = i + 1 == n ? 0 : i + 1;
                afterPut(ch, i);
                return;
            }
        }
        routeSlow(item, outs);
    }

    private void routeSlow(Object item, SpscChannel[] outs) {
        long start = System.nanoTime();
        try {
            int n = outs.length;
            for (int round = 0; ; round++) {
                int live = 0;
                for (int k = 0; k < n; k++) {
                    int i = nextOut + k;
                    if (i >= n) {
                        i -= n;
                    }
                    SpscChannel ch = outs[i];
                    if (ch.goneSeen || (ch.consumerGone && noticeGone(ch))) {
                        continue;
                    }
                    live++;
                    if (mayRefill(ch) && ch.offer(item)) {
                        nextOut = i + 1 == n ? 0 : i + 1;
                        afterPut(ch, i);
                        return;
                    }
                }
                if (live == 0) {
                    return; // every consumer is gone: the item has nowhere to go
                }
                control.checkCancelled();
                pause(round, WAIT_OUTPUT, null);
            }
        } finally {
            blockedOutNanos += System.nanoTime() - start;
        }
    }

    private void put(SpscChannel ch, Object item, int index) {
        if (ch.goneSeen) {
            return; // its consumer ended: the item has nowhere to go (and must not pile up unbounded)
        }
        if (forwardEnded && !ch.feedback) {
            throw alreadyEnded();
        }
        if (ch.offer(item) || putSlow(ch, item)) {
            afterPut(ch, index);
        }
    }

    private IllegalStateException alreadyEnded() {
        return new IllegalStateException("node " + name + " already sent its EOS: it cannot send items"
                + " forward any more (a loop head that called sendOut(eos()) only takes fed-back items)");
    }

    /**
     * On-demand output through the dispatch: queue on the staging channel (waiting for room like any
     * channel), then hand out at once if a consumer is waiting. EOS is staged, not counted.
     */
    private void stage(Object item) {
        SpscChannel staging = dispatch.staging;
        if (staging.goneSeen) {
            return;
        }
        if (!(staging.offer(item) || putSlow(staging, item))) {
            return;
        }
        if (item != Sentinel.EOS) {
            itemsOut++;
        }
        if (staging.consumerGone) {
            noticeGone(staging); // every consumer ended
        }
        dispatch.afterSubmit();
    }

    /** Waits for room; false if the consumer is gone and the item was dropped. */
    private boolean putSlow(SpscChannel ch, Object item) {
        long start = System.nanoTime();
        try {
            for (int round = 0; ; round++) {
                if (ch.goneSeen || (ch.consumerGone && noticeGone(ch))) {
                    return false;
                }
                // Hysteresis (see IdlePolicy): once blocked, wait until the consumer drained half the
                // channel, so that the producer wakes once per half-channel, not once per free slot.
                if (mayRefill(ch) && ch.offer(item)) {
                    return true;
                }
                control.checkCancelled();
                pause(round, WAIT_OUTPUT, ch);
            }
        } finally {
            blockedOutNanos += System.nanoTime() - start;
        }
    }

    private boolean mayRefill(SpscChannel ch) {
        return !idle.hysteresis() || ch.limit <= IdlePolicy.SHORT_CHANNEL || ch.producerMayResume();
    }

    private void afterPut(SpscChannel ch, int index) {
        itemsOut++;
        if (orderRole == Vertex.OrderRole.RECORD && !ch.feedback) {
            putControl(orderChannel, index < ORDER_INDEX.length ? ORDER_INDEX[index] : Integer.valueOf(index));
        }
        wakeConsumer(ch);
    }

    /**
     * After an offer: wake the consumer if it parked on this channel. With batched wake-ups (BACKOFF) a
     * parked consumer waits for a batch anyway, so looking every 16 items is soon enough; with
     * immediate ones (BLOCKING, short and feedback channels) every item is looked at.
     */
    private void wakeConsumer(SpscChannel ch) {
        int n = ++sinceFence;
        if ((n & 15) == 0 || ch.wakeBatch == 1) {
            if ((n & 63) == 0) {
                VarHandle.fullFence(); // bounds the missed-wake-up race, see ParkingState
                if (ch.consumerGone) {
                    noticeGone(ch);
                }
            }
            ParkingState consumer = ch.consumer;
            if (consumer.state == WAIT_INPUT && ch.worthWaking()) {
                consumer.wakeForItem(ch);
            }
        }
    }

    /** Control values (EOS, order records, task marks): not counted, dropped if the consumer is gone. */
    private void putControl(SpscChannel ch, Object signal) {
        if (ch.offer(signal) || putSlow(ch, signal)) {
            wakeConsumer(ch);
        }
    }

    private void sendMarks() {
        for (SpscChannel ch : forwardOut) {
            putControl(ch, Sentinel.TASK_DONE);
        }
    }

    /** The consumer of {@code ch} ended. A node none of whose consumers is left ends too. */
    private boolean noticeGone(SpscChannel ch) {
        if (!ch.goneSeen) {
            ch.goneSeen = true;
            // Only forward consumers keep a node useful. A loop head that ended must not end the loop's
            // last stage through the feedback channel: the EOS it sent is still on its way forward,
            // behind items the last stage must process. The order channel is bookkeeping.
            if (ch != orderChannel && !ch.feedback && --liveForwardOutputs == 0) {
                endRequested = true;
            }
        }
        return true;
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
        put(forwardChannel(channel, "sendOutTo"), item, channel);
    }

    @Override
    public void emitFeedback(Object item, int channel) {
        checkOwnThread("sendFeedbackTo");
        if (channel < 0 || channel >= feedbackOut.length) {
            throw new IndexOutOfBoundsException("sendFeedbackTo: channel " + channel + " does not exist; node "
                    + name + " has " + feedbackOut.length + " feedback output channel(s)");
        }
        put(feedbackOut[channel], item, -1);
    }

    @Override
    public void broadcast(Object item) {
        checkOwnThread("broadcast");
        for (int i = 0; i < forwardOut.length; i++) {
            put(forwardOut[i], item, i);
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
            endRequested = true;
            return;
        }
        if (forwardEnded) {
            return;
        }
        sendEos();
        for (int i = 0; i < forwardInputs; i++) {
            SpscChannel ch = inputs[i];
            ch.endSeen = true; // no eosNotify: the node chose to end its stream
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

    // ------------------------------------------------------------------ waiting

    /** One failed check of a wait loop: spin, yield or park, by the policy and the round. */
    private void pause(int round, int waitKind, SpscChannel target) {
        IdlePolicy policy = (waitKind == WAIT_OUTPUT ? shortOutputs : shortInputs) ? shortIdle : idle;
        if (round < policy.spinRounds()) {
            Thread.onSpinWait();
        } else if (round < policy.spinRounds() + policy.yieldRounds()) {
            Thread.yield();
        } else {
            wakeWhoeverNeedsIt();
            waitTarget = target;
            state = waitKind; // volatile write, then the re-check below: see ParkingState
            boolean ready = waitKind == WAIT_INPUT ? inputWorthWaking(target) : outputReady(target);
            if (!ready && !control.cancelled) {
                LockSupport.parkNanos(this, policy.parkNanos());
            }
            state = RUNNING;
            // An interrupt left set would make every later park return at once (a hidden busy loop);
            // cancellation, the only interrupt the run-time sends, is seen through control.cancelled.
            Thread.interrupted();
        }
    }

    private boolean outputReady(SpscChannel target) {
        if (target != null) {
            return target.producerMayResume() || target.consumerGone;
        }
        for (SpscChannel ch : defaultOut) {
            if (ch.producerMayResume() || ch.consumerGone) {
                return true;
            }
        }
        return false;
    }

    /** Before parking: a full fence, then wake neighbours a missed wake-up may have left asleep. */
    private void wakeWhoeverNeedsIt() {
        VarHandle.fullFence();
        for (SpscChannel ch : forwardOut) {
            wakeIfItems(ch);
        }
        for (SpscChannel ch : feedbackOut) {
            wakeIfItems(ch);
        }
        if (orderRole == Vertex.OrderRole.RECORD) {
            wakeIfItems(orderChannel);
        }
        for (SpscChannel ch : inputs) {
            ParkingState producer = ch.producer;
            if (producer.state == WAIT_OUTPUT) {
                producer.wakeForRoom(ch);
            }
        }
        if (orderRole == Vertex.OrderRole.COLLECT) {
            ParkingState producer = orderChannel.producer;
            if (producer.state == WAIT_OUTPUT) {
                producer.wakeForRoom(orderChannel);
            }
        }
    }

    private static void wakeIfItems(SpscChannel ch) {
        ParkingState consumer = ch.consumer;
        if (consumer.state == WAIT_INPUT && ch.hasItems()) {
            consumer.wakeForItem(ch);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
