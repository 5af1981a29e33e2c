package org.fastflowj.core.runtime;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.graph.Vertex;

/**
 * How a {@link NodeRunner} waits: its {@link IdleStrategy} steps, and the re-checks that make parking
 * safe. A thread announces a park in its {@link Parker}, re-checks that what it waits for is still
 * missing, and parks with a time-out; before parking it wakes every neighbour a skipped fence may have
 * left asleep (see {@link Parker}). A short park (the first of a wait) waits for a batch of items; a long
 * one is announced with {@link Parker#LONG}, so a single item wakes it.
 *
 * <p>Threading: the node thread only; the channels' queues and end flags it reads are written by the
 * threads at their other ends.
 */
abstract class NodeRunnerWaits extends NodeRunnerState {
    NodeRunnerWaits(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest) {
        super(vertex, control, idle, cpuRequest);
    }

    /**
     * One failed check of a wait loop (which reset the wait's {@link IdleStrategy} first): spin, yield or
     * park. Before parking it wakes neighbours a skipped fence may have left asleep,
     * then does the waiter's half of the {@link Parker} handshake.
     */
    final void pause(int waitKind, SpscChannel target) {
        IdleStrategy idler = waitKind == WAIT_OUTPUT ? outputIdler : inputIdler;
        if (!idler.nextStepParks()) {
            return;
        }
        wakeWhoeverNeedsIt();
        waitTarget = target;
        boolean longPark = idler.longPark();
        announce(longPark ? waitKind | LONG : waitKind);
        boolean ready = waitKind == WAIT_OUTPUT ? outputReady(target) : inputWorthWaking(target, longPark);
        if (!ready && !control.cancelled) {
            LockSupport.parkNanos(this, idler.parkNanos());
        }
        running();
        idler.parked();
        // An interrupt left set would make every later park return at once (a hidden busy loop);
        // cancellation, the only interrupt the run-time sends, is seen through control.cancelled.
        Thread.interrupted();
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
    final void wakeWhoeverNeedsIt() {
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
            Parker producer = ch.producer;
            if (waitsForRoom(producer.state)) {
                producer.wakeForRoom(ch);
            }
        }
        if (orderRole == Vertex.OrderRole.COLLECT) {
            Parker producer = orderChannel.producer;
            if (waitsForRoom(producer.state)) {
                producer.wakeForRoom(orderChannel);
            }
        }
    }

    private static void wakeIfItems(SpscChannel ch) {
        Parker consumer = ch.consumer;
        if (waitsForInput(consumer.state) && ch.hasItems()) {
            consumer.wakeForItem(ch);
        }
    }

    final boolean streamOver() {
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

    final boolean inputReady(SpscChannel target) {
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
    private boolean inputWorthWaking(SpscChannel target, boolean anyItem) {
        if (target != null) {
            return target.hasItems() || target.producerDone;
        }
        for (SpscChannel ch : inputs) {
            if (ch.taking()
                    && ch.hasItems()
                    && (anyItem || ch.worthWaking() || ch.producerDone || ch.producer.state != RUNNING)) {
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
}
