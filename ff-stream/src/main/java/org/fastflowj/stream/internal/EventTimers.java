package org.fastflowj.stream.internal;

import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Timers of a keyed operator instance, in one time domain (event time or the wall clock): at most one
 * per key and time; a timer fires once the domain's time reaches its time, in time order, timers of one
 * time in the order they were registered (each carries its registration's number, kept in checkpoints,
 * so a restarted run fires them as the first did).
 *
 * <p>A function often keeps a timer per key, so with incremental checkpoints on ({@link #trackChanges})
 * the timers registered, deleted or fired since the last checkpoint are noted, and a checkpoint writes
 * those only.
 */
final class EventTimers {
    /** A timer: equal to another of the same key and time, whatever its registration's number. */
    record Timer(long time, Object key, long registered) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Timer t && t.time == time && Objects.equals(t.key, key);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(time) * 31 + Objects.hashCode(key);
        }
    }

    // A class, not a lambda: the queue goes into checkpoints with its comparator.
    private static final class ByTime implements Comparator<Timer> {
        @Override
        public int compare(Timer a, Timer b) {
            int byTime = Long.compare(a.time, b.time);
            return byTime != 0 ? byTime : Long.compare(a.registered, b.registered);
        }
    }

    private final PriorityQueue<Timer> queue = new PriorityQueue<>(new ByTime());
    /** The pending timers, each to itself: the queue may also hold deleted ones, and older registrations. */
    private final Map<Timer, Timer> pending = new HashMap<>();
    /** The number of the next registration. */
    private long registrations;
    /** The timers added or removed since the last checkpoint; null unless tracking. Not in a snapshot. */
    private transient Set<Timer> changed;

    void register(Object key, long time) {
        Timer timer = new Timer(time, key, registrations);
        if (pending.putIfAbsent(timer, timer) == null) {
            registrations++;
            queue.add(timer);
            if (changed != null) {
                changed.add(timer);
            }
        }
    }

    void delete(Object key, long time) {
        Timer timer = new Timer(time, key, -1);
        if (pending.remove(timer) != null && changed != null) {
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
     * The timers noted since the last checkpoint, each as it is pending now or null if it is not, and the
     * number of the next registration, as {@code {Timer[], Timer[], Long}}; and forgets them.
     */
    Object[] saveChanges() {
        Timer[] timers = changed.toArray(new Timer[0]);
        Timer[] pendingNow = new Timer[timers.length];
        for (int i = 0; i < timers.length; i++) {
            pendingNow[i] = pending.get(timers[i]);
        }
        changed.clear();
        return new Object[] {timers, pendingNow, registrations};
    }

    /** Applies what {@link #saveChanges} gave. */
    void loadChanges(Object[] changes) {
        Timer[] timers = (Timer[]) changes[0];
        Timer[] pendingNow = (Timer[]) changes[1];
        for (int i = 0; i < timers.length; i++) {
            Timer now = pendingNow[i];
            if (now == null) {
                // Its queue entry, if any, is skipped when due, as a deleted timer's is.
                pending.remove(timers[i]);
            } else {
                Timer before = pending.put(now, now);
                if (before == null || before.registered != now.registered) {
                    queue.add(now);
                }
            }
        }
        registrations = (Long) changes[2];
    }

    /** The next timer due at {@code watermark}, removed, or null. Deleted timers are skipped here. */
    Timer pollDue(long watermark) {
        while (!queue.isEmpty() && queue.peek().time <= watermark) {
            Timer timer = queue.poll();
            Timer live = pending.get(timer);
            // A deleted timer, or an older registration of one registered again, is not the live one.
            if (live != null && live.registered == timer.registered) {
                pending.remove(timer);
                if (changed != null) {
                    changed.add(timer);
                }
                return timer;
            }
        }
        return null;
    }
}
