package org.fastflowj.core.runtime;

import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.spi.Sentinel;

/**
 * What every {@link InputGate} does with an input channel besides polling it: handling a control value
 * taken from it (end-of-stream, an ordered farm's task mark), waking its producer parked for room,
 * refilling on-demand slots from their dispatch, and waiting when nothing can be taken.
 *
 * <p>Threading: the node thread is every input channel's only consumer; it reads the producer's park
 * state and end flag, written by the producer.
 */
final class InputChannels {
    private final RunnerState r;

    InputChannels(RunnerState r) {
        this.r = r;
    }

    /** A control value taken from input {@code index}: EOS ends the channel; a task mark is passed on. */
    void control(SpscChannel ch, int index, Object signal) throws Exception {
        if (signal == Sentinel.EOS) {
            ch.intake = SpscChannel.Intake.ENDED;
            if (index < r.forwardInputs) {
                r.liveForward--;
                r.phase = "eosNotify";
                r.access.inputEnded(r.node, index, r.liveForward == 0);
                r.phase = "svc";
            }
        } else if (signal == Sentinel.TASK_DONE) {
            if (r.orderRole == Vertex.OrderRole.PASS_MARKS) {
                r.out.sendMarks();
            }
        }
    }

    /** After a poll: wakes the producer if it parked on this channel for room ({@link SpscChannel#tookOne}). */
    void tookFrom(SpscChannel ch) {
        ch.tookOne(++r.inputsSinceFence);
    }

    /**
     * Nothing taken in a round over the inputs: refill an empty on-demand slot from its dispatch if that
     * places anything, else one step of the wait for input.
     */
    void nothingTaken() throws Exception {
        if (r.dispatchedInputs.length == 0 || !refillSlots()) {
            awaitInput(null); // (refilling an on-demand slot is not a wait: it is not timed)
        }
    }

    /** Runs the dispatch of every empty on-demand input; true if that placed anything anywhere. */
    private boolean refillSlots() {
        boolean placed = false;
        for (SpscChannel ch : r.dispatchedInputs) {
            if (ch.taking() && !ch.hasItems()) {
                placed |= ch.dispatch.run(r);
            }
        }
        return placed;
    }

    /** Waits until {@code target} (null: any input) has an item or ended, or the stream is over. */
    void awaitInput(SpscChannel target) throws Exception {
        RunnerState self = r;
        long start = System.nanoTime();
        self.inputIdler.reset();
        RunnerWaits waits = self.waits;
        while (!waits.inputReady(target)) {
            self.control.checkCancelled();
            self.idleHook.beforeIdleStep(self.inputIdler.parksNext());
            if (target == null && self.dispatchedInputs.length > 0 && refillSlots()) {
                continue;
            }
            waits.pauseForInput(target);
        }
        self.blockedInNanos += System.nanoTime() - start;
    }
}
