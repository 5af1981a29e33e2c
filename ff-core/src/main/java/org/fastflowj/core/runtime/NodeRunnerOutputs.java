package org.fastflowj.core.runtime;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.graph.Vertex;

/**
 * The output side of a {@link NodeRunner}: routing an item (round-robin, on-demand through the staging
 * channel, or to a chosen channel), waiting for room, waking a parked consumer, and EOS and the ordered
 * farm's control values.
 *
 * <p>Threading: the node thread is every output channel's only producer; it reads the consumer's park
 * state and end flag, written by the consumer.
 */
abstract class NodeRunnerOutputs extends NodeRunnerWaits {
    /** Boxed channel indices for order records, so recording allocates nothing. */
    private static final Object[] ORDER_INDEX = new Object[4096];

    static {
        for (int i = 0; i < ORDER_INDEX.length; i++) {
            ORDER_INDEX[i] = i;
        }
    }

    NodeRunnerOutputs(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest) {
        super(vertex, control, idle, cpuRequest);
    }

    /** The default routing of an item, from svc's result or a checked sendOut. */
    final void emitResult(Object item) {
        if (itemFilter != null) {
            item = itemFilter.apply(item);
        }
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

    /** A recoverable farm's emitter: sends every item handed back as if its svc had sent it. */
    final void redeliver() {
        Object item;
        while ((item = redelivery.poll()) != null) {
            emitAgain(item);
        }
    }

    private void emitAgain(Object item) {
        if (!anyForwardOutputOpen()) {
            throw new IllegalStateException("node " + name + " has items of lost workers to send again, but"
                    + " every worker of its recoverable farm is gone: they have nowhere to go");
        }
        emitResult(item);
    }

    private boolean anyForwardOutputOpen() {
        for (SpscChannel ch : forwardOut) {
            if (!ch.goneSeen() && !ch.consumerGone) {
                return true;
            }
        }
        return false;
    }

    /**
     * A recoverable farm's emitter, before its EOS: waits until every item it put on a watched output is
     * answered or handed back, sending the handed-back ones again. Items come back only when a group is
     * lost, so this wait checks every {@link #SETTLE_CHECK_NANOS} rather than being woken.
     */
    final void awaitRedeliveriesSettled() {
        int[] watched = redelivery.watchedOutputs();
        for (; ; ) {
            control.checkCancelled();
            // Staged items not handed out yet may still go to a watched slot: the end waits for them too.
            boolean settled = dispatch == null || !dispatch.hasWork();
            for (int output : watched) {
                // Settled is read before the poll: an item handed back is queued before it counts.
                long put = dispatch == null ? putOnOutput[output] : dispatch.placed(output);
                settled &= redelivery.settled(output) >= put;
            }
            Object item = redelivery.poll();
            if (item != null) {
                emitAgain(item);
            } else if (settled) {
                return;
            } else {
                if (dispatch != null) {
                    dispatch.run(null); // hands staged items to slots with room, if no consumer did
                }
                LockSupport.parkNanos(this, SETTLE_CHECK_NANOS);
            }
        }
    }

    /** How often the end of a recoverable farm's emitter looks whether its remote workers answered. */
    private static final long SETTLE_CHECK_NANOS = 1_000_000;

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
            if (!ch.goneSeen() && ch.offer(item)) {
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
            outputIdler.reset();
            for (; ; ) {
                int live = 0;
                for (int k = 0; k < n; k++) {
                    int i = nextOut + k;
                    if (i >= n) {
                        i -= n;
                    }
                    SpscChannel ch = outs[i];
                    if (ch.goneSeen() || (ch.consumerGone && noticeGone(ch))) {
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
                pause(WAIT_OUTPUT, null);
            }
        } finally {
            blockedOutNanos += System.nanoTime() - start;
        }
    }

    final void put(SpscChannel ch, Object item, int index) {
        if (ch.goneSeen()) {
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
        if (staging.goneSeen()) {
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
            outputIdler.reset();
            for (; ; ) {
                if (ch.goneSeen() || (ch.consumerGone && noticeGone(ch))) {
                    return false;
                }
                // Hysteresis (see IdlePolicy): once blocked, wait until the consumer drained half the
                // channel, so that the producer wakes once per half-channel, not once per free slot.
                if (mayRefill(ch) && ch.offer(item)) {
                    return true;
                }
                control.checkCancelled();
                pause(WAIT_OUTPUT, ch);
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
        if (putOnOutput != null && !ch.feedback) {
            putOnOutput[index]++; // only a recoverable farm's emitter counts (see Redelivery)
        }
        if (orderRole == Vertex.OrderRole.RECORD && !ch.feedback) {
            putControl(orderChannel, index < ORDER_INDEX.length ? ORDER_INDEX[index] : Integer.valueOf(index));
        }
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
        if ((++sinceFence & 63) == 0) {
            VarHandle.fullFence();
            if (ch.consumerGone) {
                noticeGone(ch);
            }
        }
        Parker consumer = ch.consumer;
        int s = consumer.state;
        if (s != RUNNING && (s == (WAIT_INPUT | LONG) || (s == WAIT_INPUT && ch.worthWaking()))) {
            consumer.wakeForItem(ch);
        }
    }

    /** Control values (EOS, order records, task marks): not counted, dropped if the consumer is gone. */
    final void putControl(SpscChannel ch, Object signal) {
        if (ch.offer(signal) || putSlow(ch, signal)) {
            wakeConsumer(ch);
        }
    }

    final void sendMarks() {
        for (SpscChannel ch : forwardOut) {
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
            // A bridge stays: it must tell its peer group, and decides itself when it ends.
            if (ch != orderChannel && !ch.feedback && --liveForwardOutputs == 0 && bridge == null) {
                endRequested = true;
            }
        }
        return true;
    }

    final void sendEos() {
        if (forwardEnded) {
            return;
        }
        forwardEnded = true;
        if (dispatch != null) {
            stage(Sentinel.EOS); // behind every staged item; the dispatch hands it to each slot
        } else {
            for (SpscChannel ch : forwardOut) {
                if (ch.outflow == SpscChannel.Outflow.OPEN) {
                    putControl(ch, Sentinel.EOS);
                }
            }
        }
        if (orderRole == Vertex.OrderRole.RECORD) {
            putControl(orderChannel, Sentinel.ORDER_END);
        }
    }
}
