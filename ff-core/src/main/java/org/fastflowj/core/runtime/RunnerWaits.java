package org.fastflowj.core.runtime;

import static org.fastflowj.core.runtime.Parker.LONG;
import static org.fastflowj.core.runtime.Parker.WAIT_INPUT;
import static org.fastflowj.core.runtime.Parker.WAIT_OUTPUT;
import static org.fastflowj.core.runtime.Parker.waitsForInput;
import static org.fastflowj.core.runtime.Parker.waitsForRoom;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.graph.Vertex;

/**
 * How a {@link NodeRunner} waits: its {@link IdleStrategy} steps, and the re-checks that make parking
 * safe. A thread announces a park in its {@link Parker} (the runner itself), re-checks that what it waits
 * for is still missing, and parks with a time-out; before parking it wakes every neighbour a skipped fence
 * may have left asleep (see {@link Parker}). A short park (the first of a wait) waits for a batch of
 * items; a long one is announced with {@link Parker#LONG}, so a single item wakes it.
 *
 * <p>Threading: the node thread only; the channels' queues and end flags it reads are written by the
 * threads at their other ends.
 */
final class RunnerWaits {
    private final RunnerState r;

    RunnerWaits(RunnerState r) {
        this.r = r;
    }

    /** One failed check of a wait for input on {@code target} (null: any input); see {@link #pause}. */
    void pauseForInput(SpscChannel target) {
        pause(r.inputIdler, WAIT_INPUT, target);
    }

    /** One failed check of a wait for room on {@code target} (null: any default output). */
    void pauseForRoom(SpscChannel target) {
        pause(r.outputIdler, WAIT_OUTPUT, target);
    }

    /**
     * One failed check of a wait loop (which reset the wait's {@link IdleStrategy} first): spin, yield or
     * park. Before parking it wakes neighbours a skipped fence may have left asleep, then does the
     * waiter's half of the {@link Parker} handshake.
     */
    private void pause(IdleStrategy idler, int waitKind, SpscChannel target) {
        if (!idler.nextStepParks()) {
            return;
        }
        wakeWhoeverNeedsIt();
        RunnerState self = r;
        self.waitTarget = target;
        boolean longPark = idler.longPark();
        self.announce(longPark ? waitKind | LONG : waitKind);
        boolean ready = waitKind == WAIT_OUTPUT ? outputReady(target) : inputWorthWaking(target, longPark);
        if (!ready && !self.control.cancelled) {
            LockSupport.parkNanos(self, idler.parkNanos());
        }
        self.running();
        idler.parked();
        // An interrupt left set would make every later park return at once (a hidden busy loop);
        // cancellation, the only interrupt the run-time sends, is seen through control.cancelled.
        Thread.interrupted();
    }

    private boolean outputReady(SpscChannel target) {
        if (target != null) {
            return target.producerMayResume() || target.consumerGone;
        }
        for (SpscChannel ch : r.defaultOut) {
            if (ch.producerMayResume() || ch.consumerGone) {
                return true;
            }
        }
        return false;
    }

    /** Before parking: a full fence, then wake neighbours a missed wake-up may have left asleep. */
    void wakeWhoeverNeedsIt() {
        VarHandle.fullFence();
        for (SpscChannel ch : r.forwardOut) {
            wakeIfItems(ch);
        }
        for (SpscChannel ch : r.feedbackOut) {
            wakeIfItems(ch);
        }
        if (r.orderRole == Vertex.OrderRole.RECORD) {
            wakeIfItems(r.orderChannel);
        }
        for (SpscChannel ch : r.inputs) {
            Parker producer = ch.producer;
            if (waitsForRoom(producer.state)) {
                producer.wakeForRoom(ch);
            }
        }
        if (r.orderRole == Vertex.OrderRole.COLLECT) {
            Parker producer = r.orderChannel.producer;
            if (waitsForRoom(producer.state)) {
                producer.wakeForRoom(r.orderChannel);
            }
        }
    }

    private static void wakeIfItems(SpscChannel ch) {
        Parker consumer = ch.consumer;
        if (waitsForInput(consumer.state) && ch.hasItems()) {
            consumer.wakeForItem(ch);
        }
    }

    /** Every forward input ended, and every feedback producer is done with nothing left to take. */
    boolean streamOver() {
        if (r.liveForward > 0) {
            return false;
        }
        SpscChannel[] inputs = r.inputs;
        for (int i = r.forwardInputs; i < inputs.length; i++) {
            SpscChannel ch = inputs[i];
            if (!ch.producerDone || ch.hasItems()) {
                return false;
            }
        }
        return true;
    }

    boolean inputReady(SpscChannel target) {
        if (target != null) {
            return target.hasItems() || target.producerDone;
        }
        for (SpscChannel ch : r.inputs) {
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
    private boolean inputWorthWaking(SpscChannel target, boolean anyItem) {
        if (target != null) {
            return target.hasItems() || target.producerDone;
        }
        for (SpscChannel ch : r.inputs) {
            if (ch.taking()
                    && ch.hasItems()
                    && (anyItem || ch.worthWaking() || ch.producerDone || ch.producer.state != Parker.RUNNING)) {
                return true;
            }
        }
        for (SpscChannel ch : r.dispatchedInputs) {
            if (ch.taking() && ch.dispatch.hasWork()) {
                return true; // staged items: refill the slot instead of parking
            }
        }
        return streamOver();
    }
}
