package org.fastflowj.core.runtime.node;

import static org.fastflowj.core.runtime.channel.Parker.WAIT_INPUT;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.runtime.channel.ChannelEnd;
import org.fastflowj.core.runtime.channel.Chunk;
import org.fastflowj.core.runtime.channel.IdlePolicy;
import org.fastflowj.core.runtime.channel.IdleStrategy;
import org.fastflowj.core.runtime.channel.Parker;
import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.runtime.control.RunControl;
import org.fastflowj.core.spi.CheckpointBarrier;
import org.fastflowj.core.spi.Sentinel;

/**
 * A node runner's input side: its input channels and its state over them (which channel the current item
 * came from, how many forward inputs are still open, the round-robin cursor, the ordered collector's
 * current worker, its wait), its {@link InputGate}, and the channel work every gate shares: a control
 * value taken (end-of-stream, a task mark), a producer parked for room woken, on-demand slots refilled
 * from their dispatch, the wait when nothing can be taken. The runner sees it through {@link #next} and
 * the few calls below; its fields are its own and its gates'.
 *
 * <p>Created padded ({@link #create}): its thread writes the fields on every item.
 *
 * <p>Threading: the node thread is every input channel's only consumer; it reads the producer's park
 * state and end flag, written by the producer.
 */
public class InputChannels extends WaitTime {
    private final NodeLife life;
    private final ChannelEnd self;
    private final RunControl control;
    /** Forward inputs first, then feedback ones: the channels items come from. */
    final SpscChannel[] inputs;

    final int forwardInputs;
    /** Every channel this side consumes, to close and wake at the end: the inputs, an ordered collector's order channel. */
    private final SpscChannel[] consumed;
    /** Forward inputs that are on-demand slots of some dispatch, which this node runs when they are empty. */
    final SpscChannel[] dispatchedInputs;
    /** How this thread waits for input: chosen by the channels' length and producers. */
    final IdleStrategy idler;
    /** What a waiting thread does before each idle step: nothing, or a recoverable emitter's redelivery. */
    final IdleHook idleHook;
    /** The re-check of a park for input ({@link #inputArrived}). */
    private final Parker.WaitCondition inputArrived = this::inputArrived;

    final TaskMarks taskMarks;

    /** The wait for checkpoint barriers, or null for a run without checkpoints. */
    BarrierAlignment alignment;

    /** Set once when wired; an ordered collector's gate hands over to a plain one once. */
    private InputGate gate;

    // node-thread state
    int liveForward;
    /** The next input {@link RoundRobinInputs} polls. */
    int cursor;

    int currentChannel;
    boolean currentFeedback;
    /** The ordered collector's worker whose task it reads, or -1 to read the next order record. */
    int orderWorker = -1;
    /** Items taken since the last fence (see Parker): one take in 64 fences. */
    private int takesSinceFence;

    /** An input side padded at its end too (see {@link PartPadding}). */
    static InputChannels create(
            NodeLife life,
            ChannelEnd self,
            RunControl control,
            IdlePolicy idle,
            SpscChannel[] forwardIn,
            SpscChannel[] feedbackIn,
            SpscChannel orderIn,
            IdleHook idleHook,
            TaskMarks taskMarks) {
        return new Padded(life, self, control, idle, forwardIn, feedbackIn, orderIn, idleHook, taskMarks);
    }

    @SuppressWarnings("unused")
    private static final class Padded extends InputChannels {
        private long r00, r01, r02, r03, r04, r05, r06, r07;
        private long r10, r11, r12, r13, r14, r15, r16, r17;

        Padded(
                NodeLife life,
                ChannelEnd self,
                RunControl control,
                IdlePolicy idle,
                SpscChannel[] forwardIn,
                SpscChannel[] feedbackIn,
                SpscChannel orderIn,
                IdleHook idleHook,
                TaskMarks taskMarks) {
            super(life, self, control, idle, forwardIn, feedbackIn, orderIn, idleHook, taskMarks);
        }
    }

    private InputChannels(
            NodeLife life,
            ChannelEnd self,
            RunControl control,
            IdlePolicy idle,
            SpscChannel[] forwardIn,
            SpscChannel[] feedbackIn,
            SpscChannel orderIn,
            IdleHook idleHook,
            TaskMarks taskMarks) {
        this.life = life;
        this.self = self;
        this.control = control;
        this.inputs = new SpscChannel[forwardIn.length + feedbackIn.length];
        System.arraycopy(forwardIn, 0, inputs, 0, forwardIn.length);
        System.arraycopy(feedbackIn, 0, inputs, forwardIn.length, feedbackIn.length);
        this.forwardInputs = forwardIn.length;
        this.liveForward = forwardIn.length;
        this.currentFeedback = forwardIn.length == 0 && feedbackIn.length == 1; // fixed for one input
        if (orderIn == null) {
            this.consumed = inputs;
        } else {
            this.consumed = new SpscChannel[inputs.length + 1];
            System.arraycopy(inputs, 0, consumed, 0, inputs.length);
            consumed[inputs.length] = orderIn;
        }
        boolean shortInputs = false;
        List<SpscChannel> dispatched = new ArrayList<>();
        for (SpscChannel ch : forwardIn) {
            if (ch.dispatch != null) {
                dispatched.add(ch);
            }
            shortInputs |= ch.limit <= IdlePolicy.SHORT_CHANNEL;
        }
        this.dispatchedInputs = dispatched.toArray(new SpscChannel[0]);
        // A node fed by a receiving bridge keeps the common spins: its items come in socket-read bursts,
        // and a sink that parks between two bursts of small messages is woken once per burst, late.
        this.idler = new IdleStrategy(
                shortInputs ? idle.forShortChannels() : receivesChunks() ? idle : idle.forLongInputs());
        this.idleHook = idleHook;
        this.taskMarks = taskMarks;
    }

    /** Whether an input's producer sends {@link Chunk}s (only a bridge does), which the runner unrolls. */
    final boolean receivesChunks() {
        for (SpscChannel ch : inputs) {
            if (ch.producer.sendsChunks()) {
                return true;
            }
        }
        return false;
    }

    /** The gate, once when wired; an ordered collector's gate hands over once ({@link #handOver}). */
    final void gate(InputGate gate) {
        this.gate = gate;
    }

    final InputGate gate() {
        return gate;
    }

    /** The ordered collector's gate, at its order's end: {@code after} takes what is left, for good. */
    final void handOver(InputGate after) {
        this.gate = after;
    }

    /** The next item (or {@link Chunk}), or null when the stream is over or the node asked to end. */
    final Object next() throws Exception {
        return gate.next();
    }

    /** Whether the node still takes items. */
    final boolean running() {
        return life.isRunning();
    }

    /** Whether the node has feedback inputs (a loop head). */
    final boolean hasFeedback() {
        return inputs.length > forwardInputs;
    }

    /**
     * A control value taken from input {@code index}: EOS ends the channel; a task mark goes to the
     * node's {@link TaskMarks}; a checkpoint's barrier to its {@link BarrierAlignment}.
     */
    final void control(SpscChannel ch, int index, Object signal) throws Exception {
        if (signal == Sentinel.EOS) {
            ch.intake = SpscChannel.Intake.ENDED;
            if (index < forwardInputs) {
                liveForward--;
                if (alignment != null) {
                    alignment.inputEnded(index);
                }
                releaseHoldsIfStuck();
                life.inputEnded(index, liveForward == 0);
            }
        } else if (signal == Sentinel.TASK_DONE) {
            taskMarks.taken();
        } else if (signal instanceof CheckpointBarrier barrier) {
            alignment.barrier(ch, index, barrier); // only a run with checkpoints sends one; it has no feedback
        }
    }

    /**
     * The node's wish to read forward input {@code channel} after its others ({@code hold}) or again. Only
     * an open input whose producer is a node of this process is held: an input fed from another group
     * shares its connection with the node's other inputs from there, and a connection that stops being
     * read for one of them would starve the rest. A hold never leaves the node with nothing to read: when
     * every forward input is held, blocked for a checkpoint or ended, the holds are let go.
     */
    final void hold(int channel, boolean hold) {
        if (channel < 0 || channel >= forwardInputs) {
            throw new IllegalArgumentException(
                    "no forward input " + channel + " to hold: the node has " + forwardInputs);
        }
        SpscChannel ch = inputs[channel];
        if (!hold) {
            if (ch.intake == SpscChannel.Intake.HELD) {
                ch.intake = SpscChannel.Intake.OPEN;
            }
        } else if (ch.intake == SpscChannel.Intake.OPEN && ch.producer instanceof NodeRunner) {
            ch.intake = SpscChannel.Intake.HELD;
            releaseHoldsIfStuck();
        }
    }

    /** Lets every hold go when no forward input is open: a held input is then the only one to read. */
    final void releaseHoldsIfStuck() {
        SpscChannel[] in = inputs;
        for (int i = 0; i < forwardInputs; i++) {
            if (in[i].intake == SpscChannel.Intake.OPEN) {
                return;
            }
        }
        for (int i = 0; i < forwardInputs; i++) {
            if (in[i].intake == SpscChannel.Intake.HELD) {
                in[i].intake = SpscChannel.Intake.OPEN;
            }
        }
    }

    /** After a poll: wakes the producer if it parked on this channel for room ({@link SpscChannel#tookOne}). */
    final void tookFrom(SpscChannel ch) {
        ch.tookOne(++takesSinceFence);
    }

    /**
     * Nothing taken in a round over the inputs: refill an empty on-demand slot from its dispatch if that
     * places anything, else one step of the wait for input.
     */
    final void nothingTaken() throws Exception {
        if (dispatchedInputs.length == 0 || !refillSlots()) {
            awaitInput(null); // (refilling an on-demand slot is not a wait: it is not timed)
        }
    }

    /** Runs the dispatch of every empty on-demand input; true if that placed anything anywhere. */
    private boolean refillSlots() {
        boolean placed = false;
        for (SpscChannel ch : dispatchedInputs) {
            if (ch.taking() && !ch.hasItems()) {
                placed |= ch.dispatch.run(self);
            }
        }
        return placed;
    }

    /** Waits until {@code target} (null: any input) has an item or ended, or the stream is over. */
    final void awaitInput(SpscChannel target) throws Exception {
        long start = System.nanoTime();
        IdleStrategy idle = idler;
        idle.reset();
        if (inputReady(target)) {
            blockedNanos += System.nanoTime() - start;
            return;
        }
        self.noteInputWait();
        waitBegan(start);
        try {
            do {
                control.checkCancelled();
                idleHook.beforeIdleStep(idle.parksNext());
                if (target == null && dispatchedInputs.length > 0 && refillSlots()) {
                    continue;
                }
                self.pause(idle, WAIT_INPUT, target, inputArrived, Long.MAX_VALUE);
            } while (!inputReady(target));
        } finally {
            waitEnded(start);
        }
    }

    /** Every forward input ended, and every feedback producer is done with nothing left to take. */
    final boolean streamOver() {
        if (liveForward > 0) {
            return false;
        }
        SpscChannel[] in = inputs;
        for (int i = forwardInputs; i < in.length; i++) {
            SpscChannel ch = in[i];
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
            if (ch.taking() && ch.hasItems()) {
                return true;
            }
        }
        return streamOver();
    }

    /**
     * The re-check before parking on empty inputs. A consumer in a short park is woken once a batch is
     * queued (or its producer stops), so it parks unless a batch is already there or the producer has
     * stopped; one in a long park ({@code anyItem}) is woken by a single item, so any item keeps it up.
     * Staged on-demand items keep it up either way: it refills its slot from them itself.
     */
    final boolean worthWaking(SpscChannel target, boolean anyItem) {
        if (target != null) {
            return target.hasItems() || target.producerDone;
        }
        for (SpscChannel ch : inputs) {
            if (ch.taking()
                    && ch.hasItems()
                    && (anyItem || ch.worthWaking() || ch.producerDone || ch.producer.state != Parker.RUNNING)) {
                return true;
            }
        }
        for (SpscChannel ch : dispatchedInputs) {
            if (ch.taking() && ch.dispatch.hasWork()) {
                return true; // staged items: refill the slot instead of parking
            }
        }
        return streamOver();
    }

    /** The park's re-check: what {@link #worthWaking} says for the wait announced, or the run cancelled. */
    private boolean inputArrived() {
        return control.cancelled || worthWaking(self.waitTarget, idler.longPark());
    }

    /**
     * A loop head's early end of its stream: its forward inputs are closed without eosNotify (the node
     * chose to end), their producers then drop instead of waiting. The caller fences and then calls
     * {@link #wakeForwardProducers}.
     */
    final void closeForward() {
        for (int i = 0; i < forwardInputs; i++) {
            SpscChannel ch = inputs[i];
            ch.intake = SpscChannel.Intake.ENDED;
            ch.consumerGone = true;
        }
        liveForward = 0;
    }

    final void wakeForwardProducers() {
        for (int i = 0; i < forwardInputs; i++) {
            inputs[i].producer.wakeAnyway();
        }
    }

    /** Every channel this side takes from: the inputs, an ordered collector's order channel. */
    final SpscChannel[] consumed() {
        return consumed;
    }
}
