package org.fastflowj.core.runtime.node;

import static org.fastflowj.core.runtime.channel.Parker.WAIT_OUTPUT;

import org.fastflowj.core.runtime.channel.ChannelEnd;
import org.fastflowj.core.runtime.channel.IdlePolicy;
import org.fastflowj.core.runtime.channel.IdleStrategy;
import org.fastflowj.core.runtime.channel.OnDemandDispatch;
import org.fastflowj.core.runtime.channel.Parker;
import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.runtime.control.RunControl;
import org.fastflowj.core.spi.CheckpointBarrier;
import org.fastflowj.core.spi.Sentinel;

/**
 * A node runner's output side: its output channels and its state over them (whether its EOS went out,
 * how many forward consumers are left, the round-robin position, its counts and wait), and what every
 * {@link OutputRouter} does with a channel once it chose it: offering an item and waiting for room,
 * waking a parked consumer, noticing a consumer gone; staging on-demand items; control values (EOS, task
 * marks, an ordered emitter's records), and its {@link EndHook} after the EOS.
 *
 * <p>Created padded ({@link #create}): its thread writes the fields on every item.
 *
 * <p>Threading: the node thread is every output channel's only producer; it reads the consumer's park
 * state and end flag, written by the consumer.
 */
public class OutputChannels extends WaitTime {
    private final NodeLife life;
    private final RunControl control;
    private final ChannelEnd self;
    /** The node's name, for the error of a send after its EOS. */
    private final String nodeName;

    final SpscChannel[] forwardOut;
    final SpscChannel[] feedbackOut;
    /** Where the default routing sends: the forward outputs, or the feedback ones of a node with none. */
    final SpscChannel[] defaultOut;
    /** Every channel this side produces to, to mark done and wake at the end and before a park. */
    private final SpscChannel[] produced;
    /** An ordered emitter's order channel (bookkeeping: its consumer's end does not end the node), or null. */
    private final SpscChannel orderChannel;
    /** Set when the default outputs are on-demand slots: items go through its staging channel. */
    final OnDemandDispatch dispatch;
    /** How this thread waits for room: chosen by the channels' length. */
    final IdleStrategy idler;

    private final boolean hysteresis;
    private final EndHook endHook;
    /** The re-check of a park for room ({@link #roomArrived}). */
    private final Parker.WaitCondition roomArrived = this::roomArrived;

    // node-thread state
    private OutputSide side = OutputSide.OPEN;
    private int liveForward;
    /** The next output {@link #route} tries first. */
    private int nextOut;
    /** Items put since the last fence (see Parker): one offer in 64 fences. */
    private int putsSinceFence;

    long itemsOut;

    /** An output side padded at its end too (see {@link PartPadding}). */
    static OutputChannels create(
            NodeLife life,
            RunControl control,
            ChannelEnd self,
            String nodeName,
            IdlePolicy idle,
            SpscChannel[] forwardOut,
            SpscChannel[] feedbackOut,
            SpscChannel orderOut,
            OnDemandDispatch dispatch,
            EndHook endHook) {
        return new Padded(life, control, self, nodeName, idle, forwardOut, feedbackOut, orderOut, dispatch, endHook);
    }

    @SuppressWarnings("unused")
    private static final class Padded extends OutputChannels {
        private long r00, r01, r02, r03, r04, r05, r06, r07;
        private long r10, r11, r12, r13, r14, r15, r16, r17;

        Padded(
                NodeLife life,
                RunControl control,
                ChannelEnd self,
                String nodeName,
                IdlePolicy idle,
                SpscChannel[] forwardOut,
                SpscChannel[] feedbackOut,
                SpscChannel orderOut,
                OnDemandDispatch dispatch,
                EndHook endHook) {
            super(life, control, self, nodeName, idle, forwardOut, feedbackOut, orderOut, dispatch, endHook);
        }
    }

    private OutputChannels(
            NodeLife life,
            RunControl control,
            ChannelEnd self,
            String nodeName,
            IdlePolicy idle,
            SpscChannel[] forwardOut,
            SpscChannel[] feedbackOut,
            SpscChannel orderOut,
            OnDemandDispatch dispatch,
            EndHook endHook) {
        this.life = life;
        this.control = control;
        this.self = self;
        this.nodeName = nodeName;
        this.forwardOut = forwardOut;
        this.feedbackOut = feedbackOut;
        this.defaultOut = forwardOut.length > 0 ? forwardOut : feedbackOut;
        this.produced = new SpscChannel[forwardOut.length + feedbackOut.length + (orderOut == null ? 0 : 1)];
        System.arraycopy(forwardOut, 0, produced, 0, forwardOut.length);
        System.arraycopy(feedbackOut, 0, produced, forwardOut.length, feedbackOut.length);
        if (orderOut != null) {
            produced[produced.length - 1] = orderOut;
        }
        this.orderChannel = orderOut;
        this.dispatch = dispatch;
        this.liveForward = dispatch != null ? 1 : forwardOut.length; // staging stands for all slots
        boolean shortOutputs = false;
        if (dispatch == null) {
            for (SpscChannel ch : defaultOut) {
                shortOutputs |= ch.limit <= IdlePolicy.SHORT_CHANNEL;
            }
        }
        this.idler = new IdleStrategy(shortOutputs ? idle.forShortChannels() : idle);
        this.hysteresis = idle.hysteresis();
        this.endHook = endHook;
    }

    final EndHook endHook() {
        return endHook;
    }

    /** Whether the EOS went out on the forward outputs. */
    final boolean eosSent() {
        return side == OutputSide.EOS_SENT;
    }

    /** Round-robin: the first channel with room, starting after the last one used; its index, or -1 if dropped. */
    final int route(Object item, SpscChannel[] outs) {
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
                afterPut(ch);
                return i;
            }
        }
        return routeSlow(item, outs);
    }

    private int routeSlow(Object item, SpscChannel[] outs) {
        long start = System.nanoTime();
        waitBegan(start);
        try {
            int n = outs.length;
            idler.reset();
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
                    if (ch.mayRefill(hysteresis) && ch.offer(item)) {
                        nextOut = i + 1 == n ? 0 : i + 1;
                        afterPut(ch);
                        return i;
                    }
                }
                if (live == 0) {
                    return -1; // every consumer is gone: the item has nowhere to go
                }
                control.checkCancelled();
                self.pause(idler, WAIT_OUTPUT, null, roomArrived, Long.MAX_VALUE);
            }
        } finally {
            waitEnded(start);
        }
    }

    /** An item on {@code ch}, waiting for room; false if it was dropped (its consumer ended). */
    final boolean put(SpscChannel ch, Object item) {
        if (ch.goneSeen()) {
            return false; // its consumer ended: the item has nowhere to go (and must not pile up unbounded)
        }
        if (side == OutputSide.EOS_SENT && !ch.feedback) {
            throw alreadyEnded();
        }
        if (ch.offer(item) || putSlow(ch, item)) {
            afterPut(ch);
            return true;
        }
        return false;
    }

    final IllegalStateException alreadyEnded() {
        return new IllegalStateException("node " + nodeName + " already sent its EOS: it cannot send items"
                + " forward any more (a loop head that called sendOut(eos()) only takes fed-back items)");
    }

    /**
     * On-demand output through the dispatch: queue on the staging channel (waiting for room like any
     * channel), then hand out at once if a consumer is waiting. EOS is staged, not counted.
     */
    final void stage(Object item) {
        SpscChannel staging = dispatch.staging;
        if (staging.goneSeen()) {
            return;
        }
        if (!(staging.offer(item) || putSlow(staging, item))) {
            return;
        }
        if (!(item instanceof Sentinel)) {
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
        waitBegan(start);
        try {
            idler.reset();
            for (; ; ) {
                if (ch.goneSeen() || (ch.consumerGone && noticeGone(ch))) {
                    return false;
                }
                // Hysteresis (see IdlePolicy): once blocked, wait until the consumer drained half the
                // channel, so that the producer wakes once per half-channel, not once per free slot.
                if (ch.mayRefill(hysteresis) && ch.offer(item)) {
                    return true;
                }
                control.checkCancelled();
                self.pause(idler, WAIT_OUTPUT, ch, roomArrived, Long.MAX_VALUE);
            }
        } finally {
            waitEnded(start);
        }
    }

    private void afterPut(SpscChannel ch) {
        itemsOut++;
        wakeConsumer(ch);
    }

    /** After an offer: wakes the consumer if it waits for it ({@link SpscChannel#offered}). */
    private void wakeConsumer(SpscChannel ch) {
        if (ch.offered(++putsSinceFence) && ch.consumerGone) {
            noticeGone(ch);
        }
    }

    /** Control values (EOS, order records, task marks): not counted, dropped if the consumer is gone. */
    final void putControl(SpscChannel ch, Object signal) {
        if (ch.offer(signal) || putSlow(ch, signal)) {
            wakeConsumer(ch);
        }
    }

    /** An ordered farm worker finished a task: its mark follows the task's results on every output. */
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
            if (ch != orderChannel && !ch.feedback && --liveForward == 0) {
                life.requestStop();
            }
        }
        return true;
    }

    /** EOS on every open forward output (staged behind the items, for on-demand), once; then the end hook. */
    final void sendEos() {
        if (side == OutputSide.EOS_SENT) {
            return;
        }
        side = OutputSide.EOS_SENT;
        if (dispatch != null) {
            stage(Sentinel.EOS); // behind every staged item; the dispatch hands it to each slot
        } else {
            for (SpscChannel ch : forwardOut) {
                if (ch.outflow == SpscChannel.Outflow.OPEN) {
                    putControl(ch, Sentinel.EOS);
                }
            }
        }
        endHook.afterEos(this);
    }

    /**
     * A checkpoint's barrier on every open forward output, behind the items sent before it (staged, for
     * on-demand: the dispatch hands it to each slot); nothing once EOS went out.
     */
    final void sendBarrier(CheckpointBarrier barrier) {
        if (side == OutputSide.EOS_SENT) {
            return;
        }
        if (dispatch != null) {
            stage(barrier);
        } else {
            for (SpscChannel ch : forwardOut) {
                if (ch.outflow == SpscChannel.Outflow.OPEN) {
                    putControl(ch, barrier);
                }
            }
        }
    }

    /** The park's re-check: room (or no consumer) on the channel awaited, or the run cancelled. */
    private boolean roomArrived() {
        if (control.cancelled) {
            return true;
        }
        SpscChannel target = self.waitTarget;
        if (target != null) {
            return target.roomOrGone();
        }
        for (SpscChannel ch : defaultOut) {
            if (ch.roomOrGone()) {
                return true;
            }
        }
        return false;
    }

    /** Every channel this side offers to: the outputs, an ordered emitter's order channel. */
    final SpscChannel[] produced() {
        return produced;
    }
}
