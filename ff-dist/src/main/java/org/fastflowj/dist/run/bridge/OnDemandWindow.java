package org.fastflowj.dist.run.bridge;

import java.util.concurrent.TimeUnit;

/**
 * How many items one remote on-demand worker may have that it has not taken yet (counted by the sender from
 * when it sends one until the receiver reports the worker took it, TAKEN), sized so the worker neither waits
 * for items nor sits on items a faster worker could take.
 *
 * <p>In one process a worker's slot holds {@code slots} items and the dispatch refills it the moment the worker
 * takes one: the worker never waits while items are staged, and never has more than its slot's worth queued.
 * Across groups the refill takes a round trip (TAKEN back, the next item out), so a worker whose round trip
 * is longer than a task needs more items on their way, and one whose round trip is short needs none: every
 * item queued ahead of a slow worker is an item a faster worker does not get (FastFlow's test_a2aOnDemand2,
 * sinks of different speeds, then shares the tasks less by speed than one process does). No fixed window
 * fits both, and the round trip grows with the load of the hosts, so the window follows what the receiver
 * sees at the worker's channel (the signals of each TAKEN report):
 * <ul>
 *   <li>{@link #STARVED}: the worker waited for an item after its first one: while the sender was holding
 *       items back for want of window, the window grows by one. A worker that waits loses time and its
 *       share of the tasks, so this counts whatever else the report says;
 *   <li>{@link #CROWDED}: an item had to wait for room in the worker's channel: more items than needed were
 *       on their way. Once a window's worth of takes in a row came crowded and none starved, the window
 *       shrinks by one (never below one slot's worth): slowly, since items that come in bursts crowd for a
 *       moment while the worker would still starve with fewer.
 * </ul>
 * So it settles where an item arrives about when the worker's slot frees up, as in one process.
 *
 * <p>Fine-grained workers stay local first: while a take comes more often than every {@link #FINE_TASK_NANOS}
 * (a task costs about what its trip over the network does), the window stays within {@link
 * #FINE_WINDOW_PER_SLOT} slots' worth, so the workers next to the emitter, whose slots free up at once, take
 * most fine tasks. The time per take is measured between the worker's takes as the sender collects them (the
 * first take sets the clock); until it is known, the worker counts as coarse.
 *
 * <p>Threading: the sender node's thread only; allocates nothing after construction.
 */
final class OnDemandWindow {
    /** Signal: the worker waited for an item since the last report (after having taken one before). */
    static final int STARVED = 1;
    /** Signal: an item for the worker waited for room in its channel since the last report. */
    static final int CROWDED = 2;
    /** Time per take below which the window stays within {@link #FINE_WINDOW_PER_SLOT} slots' worth. */
    static final long FINE_TASK_NANOS = TimeUnit.MICROSECONDS.toNanos(200);
    /** Slots' worth a fine-grained worker may hold at most: one in its channel, one covering the round trip. */
    static final int FINE_WINDOW_PER_SLOT = 2;
    /** Slots' worth any worker may hold at most: a round trip of 31 tasks' time is still covered. */
    static final int MAX_WINDOW_PER_SLOT = 32;

    private final int slots;
    private int window;
    /** Takes reported crowded, none starved, since the window last changed or a report was neither. */
    private int crowdedTakes;

    private boolean clockSet;
    private long lastTakeNanos;
    /** Average time per take, halfway towards each new sample; unknown (coarse) until the second take. */
    private long perTakeNanos = Long.MAX_VALUE;

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

    /**
     * The worker took {@code count} more items (collected at {@code nowNanos}), with the reports' {@code
     * signals}; {@code heldBack} whether the sender had items for it that the window kept back.
     */
    void taken(int count, int signals, boolean heldBack, long nowNanos) {
        if (count > 0) {
            if (clockSet) {
                long sample = (nowNanos - lastTakeNanos) / count;
                perTakeNanos = perTakeNanos == Long.MAX_VALUE ? sample : perTakeNanos + (sample - perTakeNanos) / 2;
            }
            clockSet = true;
            lastTakeNanos = nowNanos;
        }
        boolean starved = (signals & STARVED) != 0;
        boolean crowded = (signals & CROWDED) != 0;
        if (starved) {
            crowdedTakes = 0;
            if (heldBack) {
                window++;
            }
        } else if (crowded) {
            crowdedTakes += Math.max(1, count);
            if (crowdedTakes >= window) {
                window--;
                crowdedTakes = 0;
            }
        } else {
            crowdedTakes = 0;
        }
        int most = (perTakeNanos < FINE_TASK_NANOS ? FINE_WINDOW_PER_SLOT : MAX_WINDOW_PER_SLOT) * slots;
        window = Math.max(slots, Math.min(most, window));
    }

    @Override
    public String toString() {
        return "window " + window + " ("
                + (perTakeNanos == Long.MAX_VALUE ? "time per take unknown" : perTakeNanos / 1000 + " us per take")
                + ")";
    }
}
