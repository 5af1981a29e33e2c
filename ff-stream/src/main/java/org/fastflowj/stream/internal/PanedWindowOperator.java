package org.fastflowj.stream.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Function;
import org.fastflowj.stream.Aggregate;

/**
 * Tumbling and sliding event-time windows, computed on panes: a window of {@code size} sliding by
 * {@code slide} is cut into panes of {@code gcd(size, slide)}; a record is added to its one pane (its
 * cost does not grow with size / slide), and a window that fires combines its panes.
 *
 * <p>Flink's semantics: window {@code [start, end)} fires when the watermark reaches {@code end - 1};
 * a record whose every window has {@code end - 1 + lateness <= watermark} is late; a record within the
 * lateness makes each of its windows that already fired fire again with the updated result. One timer per
 * key walks the key's windows in end order: when one fires it schedules the next window that holds a pane.
 */
public final class PanedWindowOperator extends WindowOperator {
    private final long size;
    private final long slide;
    private final long pane;
    private final Map<Object, TreeMap<Long, Object>> panes = new HashMap<>();

    public PanedWindowOperator(
            Function<?, ?> keyOf,
            Aggregate<?, ?, ?> aggregate,
            WindowEmitter emitter,
            long size,
            long slide,
            long lateness,
            SideSink<?> lateSink) {
        super(keyOf, aggregate, emitter, lateness, lateSink);
        this.size = size;
        this.slide = slide;
        this.pane = gcd(size, slide);
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    @Override
    void onRecord(Object value, long ts) throws Exception {
        requireTimestamp(ts, value);
        long lastStart = ts - Math.floorMod(ts, slide);
        if (plus(lastStart + size - 1, lateness) <= watermark) {
            late(value);
            return;
        }
        Object key = keyOf.apply(value);
        TreeMap<Long, Object> keyPanes = panes.computeIfAbsent(key, k -> new TreeMap<>());
        long paneStart = ts - Math.floorMod(ts, pane);
        keyPanes.put(paneStart, add(keyPanes.get(paneStart), value));
        long first = lastStart - (lastStart + size - ts - 1) / slide * slide;
        for (long start = first; start <= lastStart; start += slide) {
            long maxTimestamp = start + size - 1;
            if (maxTimestamp > watermark) {
                timers.register(key, maxTimestamp);
                return;
            }
            if (plus(maxTimestamp, lateness) > watermark) {
                fireWindow(key, keyPanes, start);
            }
        }
        // Every window of this record fired already (it came within the lateness): a timer still removes the pane.
        timers.register(key, purgeTime(paneStart));
    }

    @Override
    void onTimer(Object key, long time) throws Exception {
        TreeMap<Long, Object> keyPanes = panes.get(key);
        if (keyPanes == null) {
            return;
        }
        long end = time + 1;
        if (Math.floorMod(end - size, slide) == 0) {
            fireWindow(key, keyPanes, end - size);
        }
        // By the timer's time, not the watermark: at the end of the stream (watermark MAX) the key's later
        // windows still have to fire from their panes, in order.
        while (!keyPanes.isEmpty() && purgeTime(keyPanes.firstKey()) <= time) {
            keyPanes.pollFirstEntry();
        }
        if (keyPanes.isEmpty()) {
            panes.remove(key);
            return;
        }
        Long next = keyPanes.ceilingKey(end + slide - size);
        if (next != null) {
            timers.register(key, Math.max(end + slide, earliestEnd(next)) - 1);
        } else {
            timers.register(key, purgeTime(keyPanes.lastKey()));
        }
    }

    private void fireWindow(Object key, TreeMap<Long, Object> keyPanes, long start) throws Exception {
        NavigableMap<Long, Object> inWindow = keyPanes.subMap(start, true, start + size, false);
        if (inWindow.isEmpty()) {
            return;
        }
        Object accumulator;
        if (inWindow.size() == 1 && size == pane) {
            accumulator = inWindow.firstEntry().getValue();
        } else {
            accumulator = aggregate.create();
            for (Object paneAccumulator : inWindow.values()) {
                accumulator = aggregate.combine(accumulator, paneAccumulator);
            }
        }
        fire(key, start, start + size, accumulator);
    }

    /** The end of the first window holding the pane that starts at {@code paneStart}. */
    private long earliestEnd(long paneStart) {
        long before = paneStart - size;
        return before - Math.floorMod(before, slide) + slide + size;
    }

    /** When the last window holding the pane is past its lateness. */
    private long purgeTime(long paneStart) {
        return plus(paneStart - Math.floorMod(paneStart, slide) + size - 1, lateness);
    }
}
