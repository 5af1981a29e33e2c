package org.fastflowj.core.runtime.bridge;

import static org.fastflowj.core.runtime.channel.Parker.WAIT_OUTPUT;

import java.lang.invoke.VarHandle;
import org.fastflowj.core.runtime.channel.ChannelEnd;
import org.fastflowj.core.runtime.channel.Chunk;
import org.fastflowj.core.runtime.channel.IdleStrategy;
import org.fastflowj.core.runtime.channel.Parker;
import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.runtime.control.Cancelled;
import org.fastflowj.core.spi.CheckpointBarrier;
import org.fastflowj.core.spi.Sentinel;

/**
 * A {@link BridgeTask}'s handle on its channels: it drains its inputs itself, seeing items, ends, an
 * ordered farm's task marks and checkpoints' barriers as explicit {@link InputEvents}, and offers to its
 * outputs without waiting ({@link #offer}, {@link #offerTaskDone}, {@link #offerBarrier}, {@link
 * #tryEndOutput}; when one finds no room, the task keeps what it holds, names the output ({@link
 * #awaitRoomOn}) and returns from {@code doWork}, and the runner's idle steps wait for that room).
 * Nothing here blocks but the runner's own end ({@link #endOpenOutputs}).
 * An input the bridge does not drain is simply held: its producer finds it full, as an on-demand producer
 * finds a busy worker's slot.
 *
 * <p>Channels are numbered per kind, as the bridge vertex's edges are: forward input (output) {@code i}
 * is the {@code i}-th forward edge of the vertex, feedback ones likewise.
 *
 * <p>Memory ordering: the channels' queues publish each item (the producer's offer is a release store,
 * the consumer's poll an acquire load). Wake-ups follow the {@link Parker} handshake as in a node's loop:
 * after a take or an offer the bridge reads the other end's park state (with a full fence one time in 64,
 * and always before it parks itself, in {@link #wakeWaitingNeighbours}); end flags are volatile, each
 * written then fenced before the other end's park state is read.
 *
 * <p>Threading: {@link #closeInput}, {@link #fail}, {@link #cancelled} and {@link #parker} from any
 * thread; the rest on the bridge's thread only.
 */
public final class BridgeChannels {
    /** What draining an input reports, in channel order. Called on the bridge's thread. */
    public interface InputEvents {
        /** An item taken from input {@code channel}. */
        void item(int channel, boolean feedback, Object item) throws Exception;

        /**
         * Forward input {@code channel} ended: its EOS was taken, or the bridge closed it ({@link
         * #closeInput}) and its producer is done with nothing left in it. Once per channel.
         */
        void inputEnded(int channel) throws Exception;

        /**
         * Forward input {@code channel} carried an ordered farm's per-task mark: its producer, a worker whose
         * collector runs elsewhere, finished a task, and the items before the mark were that task's outputs.
         */
        void taskDone(int channel) throws Exception;

        /** Feedback input {@code channel}'s producer ended and everything it sent was taken. Once per channel. */
        void feedbackEnded(int channel) throws Exception;

        /**
         * Forward input {@code channel} carried checkpoint {@code id}'s barrier, after the items sent before
         * it. A bridge that does not pass barriers on fails the run: dropping one would stall the checkpoint's
         * alignment downstream for good.
         */
        default void barrier(int channel, long id) throws Exception {
            throw new IllegalStateException(this + " cannot carry checkpoint barriers (checkpoint " + id
                    + " on its forward input " + channel + ")");
        }
    }

    private final BridgeRunner runner;
    final SpscChannel[] inputs;
    final int forwardInputs;
    final SpscChannel[] forwardOut;
    final SpscChannel[] feedbackOut;
    /** The forward outputs, then the feedback ones. */
    final SpscChannel[] produced;
    /** How the runner's end waits for room for its EOS. */
    private final IdleStrategy outputIdler;

    private final Parker.WaitCondition roomForEnd = this::roomForEnd;

    private int inputsSinceFence;
    private int outputsSinceFence;
    /** Set by {@link #stopDrain} during a drain: the drain returns after the value being reported. */
    private boolean drainStopped;
    /**
     * The output whose room the runner's idle steps wait for ({@link #awaitRoomOn}), or null: they wait
     * for input and news. Bridge's thread only.
     */
    SpscChannel awaitedOutput;
    // statistics: written by the bridge's thread, read after it ended (or approximately, while it runs)
    long itemsIn;
    long itemsOut;
    long blockedOutNanos;

    BridgeChannels(
            BridgeRunner runner,
            SpscChannel[] forwardIn,
            SpscChannel[] feedbackIn,
            SpscChannel[] forwardOut,
            SpscChannel[] feedbackOut) {
        this.runner = runner;
        this.inputs = new SpscChannel[forwardIn.length + feedbackIn.length];
        System.arraycopy(forwardIn, 0, inputs, 0, forwardIn.length);
        System.arraycopy(feedbackIn, 0, inputs, forwardIn.length, feedbackIn.length);
        this.forwardInputs = forwardIn.length;
        this.forwardOut = forwardOut;
        this.feedbackOut = feedbackOut;
        this.produced = new SpscChannel[forwardOut.length + feedbackOut.length];
        System.arraycopy(forwardOut, 0, produced, 0, forwardOut.length);
        System.arraycopy(feedbackOut, 0, produced, forwardOut.length, feedbackOut.length);
        this.outputIdler = new IdleStrategy(runner.idle);
    }

    public int forwardInputs() {
        return forwardInputs;
    }

    public int feedbackInputs() {
        return inputs.length - forwardInputs;
    }

    public int forwardOutputs() {
        return forwardOut.length;
    }

    public int feedbackOutputs() {
        return feedbackOut.length;
    }

    // ---- inputs ----

    /**
     * Takes up to {@code max} values from an input and reports each to {@code events}; stops after its end.
     * An empty on-demand slot is refilled from its dispatch first. Returns how many were reported (0: the
     * input is empty, or ended before).
     */
    public int drain(int channel, boolean feedback, InputEvents events, int max) throws Exception {
        SpscChannel ch = input(channel, feedback);
        if (ch.endTaken()) {
            return 0;
        }
        int n = 0;
        boolean refilled = false;
        drainStopped = false;
        while (n < max && !drainStopped) {
            Object value = ch.poll();
            if (value == null) {
                if (ch.dispatch != null && !refilled) {
                    refilled = true;
                    if (ch.dispatch.run(runner)) {
                        continue;
                    }
                }
                break;
            }
            n++;
            tookFrom(ch);
            if (value instanceof Sentinel) {
                if (value == Sentinel.EOS) {
                    ended(ch, channel, feedback, events);
                    return n;
                }
                if (reportedAsControl(channel, feedback, value, events)) {
                    continue;
                }
            }
            itemsIn++;
            events.item(channel, feedback, value);
        }
        if (n == 0 && endedWithoutEos(ch, feedback)) {
            ended(ch, channel, feedback, events);
            return 1;
        }
        return n;
    }

    /**
     * A task mark or a checkpoint's barrier, reported as such from a forward input, dropped from a feedback
     * one (a loop carries neither); false for any other control value, which goes on as an item.
     */
    private static boolean reportedAsControl(int channel, boolean feedback, Object signal, InputEvents events)
            throws Exception {
        if (signal == Sentinel.TASK_DONE) {
            if (!feedback) {
                events.taskDone(channel);
            }
            return true;
        }
        if (signal instanceof CheckpointBarrier barrier) {
            if (!feedback) {
                events.barrier(channel, barrier.id());
            }
            return true;
        }
        return false;
    }

    /**
     * Called from an {@link InputEvents} method during {@link #drain}: the drain returns after the value
     * being reported, leaving the rest queued (the bridge cannot take more now: a batch waits for credit).
     */
    public void stopDrain() {
        drainStopped = true;
    }

    /**
     * An input that ended without an EOS the bridge could take: a feedback input (they carry none) whose
     * producer is done, or a forward input the bridge closed (its producer then drops what it sends, its
     * EOS too). Producer done is read first: its last offer happened before, so an empty channel then
     * stays empty.
     */
    private static boolean endedWithoutEos(SpscChannel ch, boolean feedback) {
        return ch.producerDone && (feedback || ch.consumerGone) && !ch.hasItems();
    }

    private static void ended(SpscChannel ch, int channel, boolean feedback, InputEvents events) throws Exception {
        ch.intake = SpscChannel.Intake.ENDED;
        if (feedback) {
            events.feedbackEnded(channel);
        } else {
            events.inputEnded(channel);
        }
    }

    /**
     * Whether a drain of this input would report something now: items, staged on-demand items, or its end.
     * During a short park's re-check (the runner announced one, {@link BridgeTask#workPending}) items count
     * as a node's re-check counts them: once a batch worth waking for is queued, or its producer stopped
     * or waits itself; until then the producer wakes the bridge when the batch is there.
     */
    public boolean hasInput(int channel, boolean feedback) {
        SpscChannel ch = input(channel, feedback);
        if (ch.endTaken()) {
            return false;
        }
        if (ch.hasItems()) {
            return runner.state != Parker.WAIT_INPUT
                    || ch.worthWaking()
                    || ch.producerDone
                    || ch.producer.state != Parker.RUNNING;
        }
        return (ch.dispatch != null && ch.dispatch.hasWork()) || (ch.producerDone && (feedback || ch.consumerGone));
    }

    /** Whether this input's end was reported. */
    public boolean inputEnded(int channel, boolean feedback) {
        return input(channel, feedback).endTaken();
    }

    /** The consumer behind this input ended: its producer stops sending (and may end early). Any thread. */
    public void closeInput(int channel, boolean feedback) {
        SpscChannel ch = input(channel, feedback);
        ch.consumerGone = true;
        VarHandle.fullFence(); // consumerGone before reading the producer's park state (Parker's handshake)
        ch.producer.wakeAnyway();
    }

    /** After a take: wakes the producer if it parked on this channel for room ({@link SpscChannel#tookOne}). */
    private void tookFrom(SpscChannel ch) {
        ch.tookOne(++inputsSinceFence);
    }

    private SpscChannel input(int channel, boolean feedback) {
        int index = feedback ? forwardInputs + channel : channel;
        if (channel < 0 || index >= (feedback ? inputs.length : forwardInputs)) {
            throw new IndexOutOfBoundsException(
                    "bridge " + runner.name + " has no " + (feedback ? "feedback" : "forward") + " input " + channel
                            + " (" + forwardInputs + " forward, " + feedbackInputs() + " feedback)");
        }
        return inputs[index];
    }

    // ---- outputs ----

    /**
     * Offers an item (or a {@link Chunk}, which the consumer unrolls) without waiting: false if the channel
     * is full. An item for a consumer that ended is dropped (true); see {@link #outputGone}.
     */
    public boolean offer(int channel, boolean feedback, Object item) {
        SpscChannel ch = output(channel, feedback);
        if (ch.outflow != SpscChannel.Outflow.OPEN) {
            return true; // its consumer is gone, or the bridge ended the channel: nothing more goes there
        }
        if (ch.offer(item)) {
            itemsOut++;
            wakeConsumer(ch);
            return true;
        }
        if (ch.consumerGone) {
            ch.outflow = SpscChannel.Outflow.GONE;
            return true;
        }
        return false;
    }

    /**
     * Whether an offer to this output may succeed now: after a full channel, once its consumer drained it
     * to the low-water mark (the same mark that makes the consumer wake a waiting producer), or its consumer
     * ended. The re-check of an idle step that waits for room ({@link #awaitRoomOn}).
     */
    public boolean hasRoom(int channel, boolean feedback) {
        SpscChannel ch = output(channel, feedback);
        return ch.consumerGone
                || ch.outflow != SpscChannel.Outflow.OPEN
                || (ch.mayRefill(runner.idle.hysteresis()) && ch.hasRoom());
    }

    /**
     * The runner's idle steps from now on wait for room on this output instead of for input: they park
     * announced as waiting for room there, so the consumer's takes wake the bridge, and {@link
     * BridgeTask#workPending} should then answer {@link #hasRoom}. Until {@link #stopAwaitingRoom}.
     */
    public void awaitRoomOn(int channel, boolean feedback) {
        awaitedOutput = output(channel, feedback);
    }

    /** The runner's idle steps wait for input and news again. */
    public void stopAwaitingRoom() {
        awaitedOutput = null;
    }

    /**
     * The producer behind this output ended: a forward channel gets its EOS (after what was sent on it), a
     * feedback channel is marked done; the runner's own end then skips it. False, and nothing changed, if
     * a forward output has no room for its EOS now (call again once {@link #hasRoom}).
     */
    public boolean tryEndOutput(int channel, boolean feedback) {
        SpscChannel ch = output(channel, feedback);
        if (ch.outflow == SpscChannel.Outflow.ENDED) {
            return true;
        }
        if (!feedback && !offerControl(ch, Sentinel.EOS)) {
            return false;
        }
        if (ch.outflow == SpscChannel.Outflow.OPEN) {
            ch.outflow = SpscChannel.Outflow.ENDED; // a gone channel stays gone
        }
        ch.producerDone = true;
        VarHandle.fullFence(); // producerDone before reading the consumer's park state (Parker's handshake)
        ch.consumer.wakeAnyway();
        return true;
    }

    /**
     * An ordered farm's per-task mark on forward output {@code channel}, after the items sent there so far:
     * a remote worker finished a task, and those items were its outputs. False if the channel has no room
     * for it now; dropped (true) if its consumer ended.
     */
    public boolean offerTaskDone(int channel) {
        return offerControl(output(channel, false), Sentinel.TASK_DONE);
    }

    /**
     * A checkpoint's barrier on forward output {@code channel}, after the items sent there so far. False if
     * the channel has no room for it now; dropped (true) if its consumer ended.
     */
    public boolean offerBarrier(int channel, CheckpointBarrier barrier) {
        return offerControl(output(channel, false), barrier);
    }

    private boolean offerControl(SpscChannel ch, Object signal) {
        if (ch.offer(signal)) {
            wakeConsumer(ch);
            return true;
        }
        return ch.consumerGone; // dropped: nobody takes it
    }

    /** Whether the consumer of this output ended (what is offered there is dropped). */
    public boolean outputGone(int channel, boolean feedback) {
        return output(channel, feedback).consumerGone;
    }

    /** Items (or chunks) offered to this output that its consumer has not taken yet. */
    public int outputQueued(int channel, boolean feedback) {
        return output(channel, feedback).queue.size();
    }

    /**
     * How many times the consumer of this forward output began to wait for input ({@link
     * ChannelEnd#inputWaits()}): a change between two looks means it waited in between. Any thread.
     */
    public int consumerInputWaits(int channel) {
        return output(channel, false).consumer.inputWaits();
    }

    /** After an offer: wakes the consumer if it waits for it ({@link SpscChannel#offered}). */
    private void wakeConsumer(SpscChannel ch) {
        ch.offered(++outputsSinceFence);
    }

    private SpscChannel output(int channel, boolean feedback) {
        SpscChannel[] outs = feedback ? feedbackOut : forwardOut;
        if (channel < 0 || channel >= outs.length) {
            throw new IndexOutOfBoundsException(
                    "bridge " + runner.name + " has no " + (feedback ? "feedback" : "forward")
                            + " output " + channel + " (" + forwardOut.length + " forward, " + feedbackOut.length
                            + " feedback)");
        }
        return outs[channel];
    }

    // ---- waits and the run ----

    /**
     * Before the bridge waits on something of its own (a link, credits): wakes the consumers of its
     * outputs that parked with items waiting, and the producers of its inputs that parked for room, as the
     * runner does before it parks. Without it a consumer that parked before a few items came waits out its
     * park time-out for them.
     */
    public void wakeWaitingNeighbours() {
        runner.wakeNeighboursBeforePark();
    }

    /**
     * Where the bridge's thread parks when idle: whoever hands it work from outside its channels (a
     * network event loop) publishes, then calls {@link Parker#wake()} on it. Any thread.
     */
    public Parker parker() {
        return runner;
    }

    /** Fails the run, naming this bridge; the first failure of a run wins. Any thread. */
    public void fail(String phase, Throwable cause) {
        runner.control.fail(runner.name, phase, cause);
    }

    /** Whether the run failed or was cancelled. Any thread. */
    public boolean cancelled() {
        return runner.control.cancelled;
    }

    /**
     * The runner's normal end: EOS on every forward output the bridge did not end itself, each waiting for
     * room (the runner's wait, out of {@code doWork}) unless its consumer is gone.
     *
     * @throws Cancelled if the run was cancelled meanwhile (the runner ends the bridge quietly)
     */
    void endOpenOutputs() {
        for (SpscChannel ch : forwardOut) {
            if (ch.outflow != SpscChannel.Outflow.OPEN) {
                continue;
            }
            outputIdler.reset();
            long start = System.nanoTime();
            while (!offerControl(ch, Sentinel.EOS)) {
                runner.control.checkCancelled();
                runner.pause(outputIdler, WAIT_OUTPUT, ch, roomForEnd, Long.MAX_VALUE);
            }
            blockedOutNanos += System.nanoTime() - start;
            ch.outflow = SpscChannel.Outflow.ENDED;
        }
    }

    /** The re-check of the end's park for room: room (or no consumer) on the output awaited, or cancelled. */
    private boolean roomForEnd() {
        return runner.control.cancelled || runner.waitTarget.roomOrGone();
    }
}
