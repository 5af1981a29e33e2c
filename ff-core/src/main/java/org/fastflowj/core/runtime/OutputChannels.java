package org.fastflowj.core.runtime;

import java.lang.invoke.VarHandle;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.spi.Sentinel;

/**
 * What every {@link OutputRouter} does with an output channel once it chose it: offering an item and
 * waiting for room, waking a parked consumer, noticing a consumer gone; staging on-demand items; control
 * values (EOS, order records, task marks).
 *
 * <p>Threading: the node thread is every output channel's only producer; it reads the consumer's park
 * state and end flag, written by the consumer.
 */
final class OutputChannels {
    /** Boxed channel indices for order records, so recording allocates nothing. */
    private static final Object[] ORDER_INDEX = new Object[4096];

    static {
        for (int i = 0; i < ORDER_INDEX.length; i++) {
            ORDER_INDEX[i] = i;
        }
    }

    private final RunnerState r;

    OutputChannels(RunnerState r) {
        this.r = r;
    }

    /** Round-robin: the first channel with room, starting after the last one used; its index, or -1 if dropped. */
    int route(Object item, SpscChannel[] outs) {
        RunnerState self = r;
        int n = outs.length;
        int start = self.nextOut;
        for (int k = 0; k < n; k++) {
            int i = start + k;
            if (i >= n) {
                i -= n;
            }
            SpscChannel ch = outs[i];
            if (!ch.goneSeen() && ch.offer(item)) {
                self.nextOut = i + 1 == n ? 0 : i + 1;
                afterPut(ch);
                return i;
            }
        }
        return routeSlow(item, outs);
    }

    private int routeSlow(Object item, SpscChannel[] outs) {
        RunnerState self = r;
        long start = System.nanoTime();
        try {
            int n = outs.length;
            self.outputIdler.reset();
            for (; ; ) {
                int live = 0;
                for (int k = 0; k < n; k++) {
                    int i = self.nextOut + k;
                    if (i >= n) {
                        i -= n;
                    }
                    SpscChannel ch = outs[i];
                    if (ch.goneSeen() || (ch.consumerGone && noticeGone(ch))) {
                        continue;
                    }
                    live++;
                    if (mayRefill(ch) && ch.offer(item)) {
                        self.nextOut = i + 1 == n ? 0 : i + 1;
                        afterPut(ch);
                        return i;
                    }
                }
                if (live == 0) {
                    return -1; // every consumer is gone: the item has nowhere to go
                }
                self.control.checkCancelled();
                self.waits.pauseForRoom(null);
            }
        } finally {
            self.blockedOutNanos += System.nanoTime() - start;
        }
    }

    /** An item on {@code ch}, waiting for room; false if it was dropped (its consumer ended). */
    boolean put(SpscChannel ch, Object item) {
        if (ch.goneSeen()) {
            return false; // its consumer ended: the item has nowhere to go (and must not pile up unbounded)
        }
        if (r.outputSide == OutputSide.EOS_SENT && !ch.feedback) {
            throw alreadyEnded();
        }
        if (ch.offer(item) || putSlow(ch, item)) {
            afterPut(ch);
            return true;
        }
        return false;
    }

    IllegalStateException alreadyEnded() {
        return new IllegalStateException("node " + r.name + " already sent its EOS: it cannot send items"
                + " forward any more (a loop head that called sendOut(eos()) only takes fed-back items)");
    }

    /** An order record for the ordered farm's collector: the item just sent went to worker {@code index}. */
    void record(int index) {
        putControl(r.orderChannel, index < ORDER_INDEX.length ? ORDER_INDEX[index] : Integer.valueOf(index));
    }

    /**
     * On-demand output through the dispatch: queue on the staging channel (waiting for room like any
     * channel), then hand out at once if a consumer is waiting. EOS is staged, not counted.
     */
    void stage(Object item) {
        SpscChannel staging = r.dispatch.staging;
        if (staging.goneSeen()) {
            return;
        }
        if (!(staging.offer(item) || putSlow(staging, item))) {
            return;
        }
        if (item != Sentinel.EOS) {
            r.itemsOut++;
        }
        if (staging.consumerGone) {
            noticeGone(staging); // every consumer ended
        }
        r.dispatch.afterSubmit();
    }

    /** Waits for room; false if the consumer is gone and the item was dropped. */
    private boolean putSlow(SpscChannel ch, Object item) {
        RunnerState self = r;
        long start = System.nanoTime();
        try {
            self.outputIdler.reset();
            for (; ; ) {
                if (ch.goneSeen() || (ch.consumerGone && noticeGone(ch))) {
                    return false;
                }
                // Hysteresis (see IdlePolicy): once blocked, wait until the consumer drained half the
                // channel, so that the producer wakes once per half-channel, not once per free slot.
                if (mayRefill(ch) && ch.offer(item)) {
                    return true;
                }
                self.control.checkCancelled();
                self.waits.pauseForRoom(ch);
            }
        } finally {
            self.blockedOutNanos += System.nanoTime() - start;
        }
    }

    private boolean mayRefill(SpscChannel ch) {
        return !r.idle.hysteresis() || ch.limit <= IdlePolicy.SHORT_CHANNEL || ch.producerMayResume();
    }

    private void afterPut(SpscChannel ch) {
        r.itemsOut++;
        wakeConsumer(ch);
    }

    /**
     * After an offer: wake the consumer if it parked on this channel. Its park state is read on every
     * item (a load of a line that changes only around a park). A short park waits for a batch
     * ({@code wakeBatch}: BACKOFF batches, BLOCKING and short and feedback channels do not); a long one,
     * announced after a wait's first park timed out, is woken by any item, so the first item after a
     * pause goes straight through. The fence every 64 items bounds the race {@link Parker} describes.
     */
    private void wakeConsumer(SpscChannel ch) {
        if ((++r.outputsSinceFence & 63) == 0) {
            VarHandle.fullFence();
            if (ch.consumerGone) {
                noticeGone(ch);
            }
        }
        Parker consumer = ch.consumer;
        int s = consumer.state;
        if (s != Parker.RUNNING
                && (s == (Parker.WAIT_INPUT | Parker.LONG) || (s == Parker.WAIT_INPUT && ch.worthWaking()))) {
            consumer.wakeForItem(ch);
        }
    }

    /** Control values (EOS, order records, task marks): not counted, dropped if the consumer is gone. */
    void putControl(SpscChannel ch, Object signal) {
        if (ch.offer(signal) || putSlow(ch, signal)) {
            wakeConsumer(ch);
        }
    }

    /** An ordered farm worker finished a task: its mark follows the task's results on every output. */
    void sendMarks() {
        for (SpscChannel ch : r.forwardOut) {
            putControl(ch, Sentinel.TASK_DONE);
        }
    }

    /** The consumer of {@code ch} ended. A node none of whose consumers is left ends too. */
    private boolean noticeGone(SpscChannel ch) {
        if (!ch.goneSeen()) {
            ch.outflow = SpscChannel.Outflow.GONE;
            // Only forward consumers keep a node useful. A loop head that ended must not end the loop's
            // last stage through the feedback channel: the EOS it sent is still on its way forward,
            // behind items the last stage must process. The order channel is bookkeeping.
            if (ch != r.orderChannel && !ch.feedback && --r.liveForwardOutputs == 0) {
                r.runPhase = r.runPhase.stopRequested();
            }
        }
        return true;
    }

    /** EOS on every open forward output (staged behind the items, for on-demand), once. */
    void sendEos() {
        if (r.outputSide == OutputSide.EOS_SENT) {
            return;
        }
        r.outputSide = OutputSide.EOS_SENT;
        if (r.dispatch != null) {
            stage(Sentinel.EOS); // behind every staged item; the dispatch hands it to each slot
        } else {
            for (SpscChannel ch : r.forwardOut) {
                if (ch.outflow == SpscChannel.Outflow.OPEN) {
                    putControl(ch, Sentinel.EOS);
                }
            }
        }
        if (r.orderRole == Vertex.OrderRole.RECORD) {
            putControl(r.orderChannel, Sentinel.ORDER_END);
        }
    }
}
