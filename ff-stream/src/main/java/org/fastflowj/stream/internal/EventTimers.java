package org.fastflowj.stream.internal;

import java.util.Comparator;
import java.util.HashSet;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Timers of a keyed operator instance, in one time domain (event time or the wall clock): at most one
 * per key and time; a timer fires once the domain's time reaches its time, in time order.
 *
 * <p>A function often keeps a timer per key, so with incremental checkpoints on ({@link #trackChanges})
 * the timers registered, deleted or fired since the last checkpoint are noted, and a checkpoint writes
 * those only. Timers of the same time fire in an order left unspecified, which a restore from changes
 * may not keep.
 */
final class EventTimers {
    record Timer(long time, Object key) {}

    // A class, not a lambda: the queue goes into checkpoints with its comparator.
    private static final class ByTime implements Comparator<Timer> {
        @Override
        public int compare(Timer a, Timer b) {
            return Long.compare(a.time, b.time);
        }
    }

    private final PriorityQueue<Timer> queue = new PriorityQueue<>(new ByTime());
    private final Set<Timer> pending = new HashSet<>();
    /** The timers added or removed since the last checkpoint; null unless tracking. Not in a snapshot. */
    private transient Set<Timer> changed;

    void register(Object key, long time) {
        Timer timer = new Timer(time, key);
        if (pending.add(timer)) {
            queue.add(timer);
            if (changed != null) {
                changed.add(timer);
            }
        }
    }

    void delete(Object key, long time) {
        Timer timer = new Timer(time, key);
        if (pending.remove(timer) && changed != null) {
            changed.add(timer);
        }
    }

    /** Notes changed timers from now on; the current ones are what the changes apply to. */
    void trackChanges() {
        if (changed == null) {
            changed = new HashSet<>();
        } else {
            changed.clear();
        }
    }

    void clearChanges() {
        if (changed != null) {
            changed.clear();
        }
    }

    int changedTimers() {
        return changed == null ? 0 : changed.size();
    }

    /**
     * The timers noted since the last checkpoint, each with whether it is pending now, as {@code {Timer[],
     * boolean[]}}, and forgets them.
     */
    Object[] saveChanges() {
        Timer[] timers = changed.toArray(new Timer[0]);
        boolean[] pendingNow = new boolean[timers.length];
        for (int i = 0; i < timers.length; i++) {
            pendingNow[i] = pending.contains(timers[i]);
        }
        changed.clear();
        return new Object[] {timers, pendingNow};
    }

    /** Applies what {@link #saveChanges} gave. */
    void loadChanges(Object[] changes) {
        Timer[] timers = (Timer[]) changes[0];
        boolean[] pendingNow = (boolean[]) changes[1];
        for (int i = 0; i < timers.length; i++) {
            if (!pendingNow[i]) {
                // Its queue entry, if any, is skipped when due, as a deleted timer's is.
                pending.remove(timers[i]);
            } else if (pending.add(timers[i])) {
                queue.add(timers[i]);
            }
        }
    }

    /** The next timer due at {@code watermark}, removed, or null. Deleted timers are skipped here. */
    Timer pollDue(long watermark) {
        while (!queue.isEmpty() && queue.peek().time <= watermark) {
            Timer timer = queue.poll();
            if (pending.remove(timer)) {
                if (changed != null) {
                    changed.add(timer);
                }
                return timer;
            }
        }
        return null;
    }
}
