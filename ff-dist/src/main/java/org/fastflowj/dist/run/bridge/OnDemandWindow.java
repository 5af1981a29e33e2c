package org.fastflowj.dist.run.bridge;

import java.util.concurrent.TimeUnit;

/**
 * How many items one remote on-demand worker may have that it has not taken yet (counted by the sender from
 * when it sends one until the receiver reports the worker took it, TAKEN), sized by how long the worker takes
 * per item.
 *
 * <p>In one process a worker's slot holds {@code slots} items and the dispatch refills it the moment the worker
 * takes one. Across groups the refill takes a round trip (TAKEN back, the next item out), so a fine-grained
 * worker needs a second slot's worth on its way or it idles each round trip, and the remote workers of the paper's
 * Fig. 10 test get far fewer tasks than the local ones. A coarse-grained worker gains nothing from it and loses
 * fidelity: every item queued ahead of it is an item a faster worker does not get (FastFlow's test_a2aOnDemand2,
 * sinks of different speeds, then shares the tasks less by speed than one process does).
 *
 * <p>The measure is the time between the worker's takes on this edge, as the sender collects them (while one of
 * its inputs is held; takes reported meanwhile are averaged over the time since the last look; the first take sets
 * the clock: a worker's first item is taken at once). At or above {@link #COARSE_TASK_NANOS}, far above a
 * loopback or LAN round trip, the window is one slot's worth; below it, two. Until it knows, it assumes coarse:
 * the first items go out as in one process. Time the worker spends on other edges, or waiting for items, counts
 * as its own: such a worker is not short of items anyway. A fast worker may read as coarse when it shares many
 * edges, which costs it only the round trip per item; and with one slot's worth the time between takes is at
 * least a round trip, so on a machine so loaded that a round trip takes longer than the threshold, finer workers
 * keep one slot's worth too.
 *
 * <p>Threading: the sender node's thread only; allocates nothing after construction.
 */
final class OnDemandWindow {
    /** Time per take from which one slot's worth is enough. */
    static final long COARSE_TASK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Slots' worth a fine-grained worker may hold: one in its channel, one covering the round trip. */
    static final int FINE_WINDOW_PER_SLOT = 2;

    private final int slots;
    private int window;
    private boolean clockSet;
    private long lastTakeNanos;
    /** Average time per take, halfway towards each new sample. */
    private long perTakeNanos = COARSE_TASK_NANOS;

    OnDemandWindow(int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("an on-demand edge has at least one slot, not " + slots);
        }
        this.slots = slots;
        this.window = slots;
    }

    /** Items the worker may have untaken now. */
    int window() {
        return window;
    }

    /** The worker took {@code count} more items (collected at {@code nowNanos}). */
    void taken(int count, long nowNanos) {
        if (count <= 0) {
            return;
        }
        if (clockSet) {
            long sample = (nowNanos - lastTakeNanos) / count;
            perTakeNanos += (sample - perTakeNanos) / 2;
        }
        clockSet = true;
        lastTakeNanos = nowNanos;
        window = perTakeNanos >= COARSE_TASK_NANOS ? slots : FINE_WINDOW_PER_SLOT * slots;
    }

    @Override
    public String toString() {
        return "window " + window + " (" + perTakeNanos / 1000 + " us per take)";
    }
}
