package org.fastflowj.core.runtime.node;

import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.runtime.channel.OnDemandDispatch;
import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.runtime.control.RunControl;
import org.fastflowj.core.runtime.recovery.Redelivery;

/**
 * A recoverable farm's emitter's part (only that node gets one, chosen when wired): sends the items of a
 * lost worker again through the emitter's own router, between batches and on every round of an input
 * wait, and holds the emitter's EOS until every item it put on a watched output is settled.
 *
 * <p>Threading: the emitter's thread. The counts of items put on each output are plain fields of that
 * thread (round-robin) or the dispatch's placement counts (on-demand, where consumers place items too).
 */
public final class Redeliverer implements IdleHook {
    /** How often the end of a recoverable farm's emitter looks whether its remote workers answered. */
    private static final long SETTLE_CHECK_NANOS = 1_000_000;

    private final String nodeName;
    private final RunControl control;
    private final OutputChannels out;
    private final Redelivery redelivery;
    /** Items put on each forward output (round-robin only; on-demand counts in the dispatch). */
    private final long[] putOnOutput;
    /** The emitter's whole router (item check included), set once when wired. */
    private OutputRouter router;

    Redeliverer(String nodeName, RunControl control, OutputChannels out, Redelivery redelivery) {
        this.nodeName = nodeName;
        this.control = control;
        this.out = out;
        this.redelivery = redelivery;
        this.putOnOutput = new long[out.forwardOut.length];
        if (out.dispatch != null) {
            out.dispatch.countPlacements(); // on-demand: the dispatch, not this thread, puts items on the slots
        }
    }

    /** The router items handed back go through again: the emitter's own, once it is built. */
    void resendThrough(OutputRouter router) {
        this.router = router;
    }

    /**
     * The emitter's router: {@code router} itself on-demand; else one that routes round-robin like it and
     * counts what goes on each forward output (a recoverable farm's emitter is never ordered).
     */
    OutputRouter counting(OutputRouter router) {
        return out.dispatch != null ? router : new Counting();
    }

    @Override
    public void beforeIdleStep(boolean parksNext) {
        redeliverPending();
    }

    /** Sends every item handed back, as if the emitter's svc had sent it. */
    void redeliverPending() {
        if (!redelivery.pending()) {
            return;
        }
        Object item;
        while ((item = redelivery.poll()) != null) {
            emitAgain(item);
        }
    }

    private void emitAgain(Object item) {
        if (!anyForwardOutputOpen()) {
            throw new IllegalStateException("node " + nodeName + " has items of lost workers to send again, but"
                    + " every worker of its recoverable farm is gone: they have nowhere to go");
        }
        router.emit(item);
    }

    private boolean anyForwardOutputOpen() {
        for (SpscChannel ch : out.forwardOut) {
            if (!ch.goneSeen() && !ch.consumerGone) {
                return true;
            }
        }
        return false;
    }

    /**
     * Before the emitter's EOS: waits until every item it put on a watched output is answered or handed
     * back, sending the handed-back ones again. Items come back only when a group is lost, so this wait
     * checks every {@link #SETTLE_CHECK_NANOS} rather than being woken.
     *
     * <p>Then it closes the books: no output may have more items settled than were put on it, and once
     * the redelivery is told the emitter ends, nothing may come back (an item handed back after this would
     * never be sent again). Either is a failure of the run, naming the node and the counts, instead of a
     * result with items missing.
     */
    void awaitSettled() {
        int[] watched = redelivery.watchedOutputs();
        OnDemandDispatch dispatch = out.dispatch;
        for (; ; ) {
            control.checkCancelled();
            // Staged items not handed out yet may still go to a watched slot: the end waits for them too.
            // The exact test (indices), not hasWork's hint: that may read an empty head slot while a
            // consumer takes, with items behind it that would then go out after this node's end.
            boolean settled = dispatch == null || dispatch.allPlaced();
            for (int output : watched) {
                // Settled is read before the poll: an item handed back is queued before it counts.
                long put = dispatch == null ? putOnOutput[output] : dispatch.placed(output);
                settled &= redelivery.settled(output) >= put;
            }
            Object item = redelivery.poll();
            if (item != null) {
                emitAgain(item);
            } else if (settled) {
                closeBooks(watched, dispatch);
                return;
            } else {
                if (dispatch != null) {
                    dispatch.run(null); // hands staged items to slots with room, if no consumer did
                }
                LockSupport.parkNanos(this, SETTLE_CHECK_NANOS);
            }
        }
    }

    /** Every item is settled: the counts must balance, and nothing may come back from now on. */
    private void closeBooks(int[] watched, OnDemandDispatch dispatch) {
        for (int output : watched) {
            long put = dispatch == null ? putOnOutput[output] : dispatch.placed(output);
            long settled = redelivery.settled(output);
            if (settled != put) {
                throw new IllegalStateException("node " + nodeName + " put " + put + " item(s) on output " + output
                        + " but " + settled + " are settled (answered or handed back): a recoverable farm's or"
                        + " all-to-all's books must balance");
            }
        }
        redelivery.emitterEnds();
        if (redelivery.pending()) {
            throw new IllegalStateException("node " + nodeName + " got an item of a lost worker back after every item"
                    + " it sent was settled: it would never be sent again");
        }
    }

    /** Round-robin or one output: counts each item put on a forward output. */
    private final class Counting implements OutputRouter {
        @Override
        public void emit(Object item) {
            SpscChannel[] outs = out.forwardOut;
            int index = outs.length == 1 ? (out.put(outs[0], item) ? 0 : -1) : out.route(item, outs);
            if (index >= 0) {
                putOnOutput[index]++;
            }
        }

        @Override
        public void putTo(SpscChannel ch, Object item, int index) {
            if (out.put(ch, item) && !ch.feedback && index >= 0) {
                putOnOutput[index]++;
            }
        }
    }
}
