package org.fastflowj.core.runtime;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.graph.Vertex;

/**
 * How a {@link NodeRunner} waits: the policy's spin, yield and park rounds, and the re-checks that make
 * parking safe. A thread announces a park in its {@link ParkingState}, re-checks that what it waits for
 * is still missing, and parks with a time-out; before parking it wakes every neighbour a missed wake-up
 * may have left asleep (see {@link ParkingState} for the race this bounds).
 *
 * <p>Threading: the node thread only; the channels' queues and end flags it reads are written by the
 * threads at their other ends.
 */
abstract class NodeRunnerWaits extends NodeRunnerState {
    NodeRunnerWaits(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest) {
        super(vertex, control, idle, cpuRequest);
    }

    /** One failed check of a wait loop: spin, yield or park, by the policy and the round. */
    final void pause(int round, int waitKind, SpscChannel target) {
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
            if (!ch.endSeen && !ch.held && ch.hasItems()) {
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
            if (!ch.endSeen
                    && !ch.held
                    && ch.hasItems()
                    && (ch.worthWaking() || ch.producerDone || ch.producer.state != RUNNING)) {
                return true;
            }
        }
        for (SpscChannel ch : dispatchedInputs) {
            if (!ch.endSeen && !ch.held && ch.dispatch.hasWork()) {
                return true; // staged items: refill the slot instead of parking
            }
        }
        return streamOver();
    }
}
