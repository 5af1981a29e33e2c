package org.fastflowj.stream.internal;

import java.util.Comparator;
import java.util.HashSet;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Timers of a keyed operator instance, in one time domain (event time or the wall clock): at most one
 * per key and time; a timer fires once the domain's time reaches its time, in time order.
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

    void register(Object key, long time) {
        Timer timer = new Timer(time, key);
        if (pending.add(timer)) {
            queue.add(timer);
        }
    }

    void delete(Object key, long time) {
        pending.remove(new Timer(time, key));
    }

    /** The next timer due at {@code watermark}, removed, or null. Deleted timers are skipped here. */
    Timer pollDue(long watermark) {
        while (!queue.isEmpty() && queue.peek().time <= watermark) {
            Timer timer = queue.poll();
            if (pending.remove(timer)) {
                return timer;
            }
        }
        return null;
    }
}
