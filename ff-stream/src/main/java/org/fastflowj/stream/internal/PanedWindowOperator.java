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
 * key walks the key's windows in end order: when one fires it schedules the next window that holds a pane
 * (so a record whose window comes after the key's pending timer registers none).
 *
 * <p>With an aggregate that deducts, a sliding window's key also keeps a running accumulator: always the
 * combination of the key's stored panes in {@code [runStart, runEnd)}, the last window fired in order.
 * A record added to such a pane is added to it too, a purged pane is deducted, and the next window moves
 * the range: the panes it leaves deducted, the ones it reaches combined. Each pane is then combined and
 * deducted once, whatever size / slide is.
 */
public final class PanedWindowOperator extends WindowOperator {
    private final long size;
    private final long slide;
    private final long pane;
    private final boolean running;
    private Map<Object, KeyPanes> panes = new HashMap<>();

    /** One key's panes by start time, and its running accumulator (see the class comment). */
    private static final class KeyPanes {
        final TreeMap<Long, Object> byStart = new TreeMap<>();
        Object running;
        long runStart;
        long runEnd;
        /** A timer of this key is pending at this time (MAX: none known): later windows need no timer of their own. */
        long nextTimer = Long.MAX_VALUE;

        void schedule(EventTimers timers, Object key, long time) {
            if (time < nextTimer) {
                timers.register(key, time);
                nextTimer = time;
            }
        }

        boolean inRun(long paneStart) {
            return running != null && paneStart >= runStart && paneStart < runEnd;
        }
    }

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
        this.running = size != pane && this.aggregate.canDeduct();
    }

    @Override
    Object[] saveWindows() {
        return new Object[] {panes};
    }

    @Override
    @SuppressWarnings("unchecked")
    void loadWindows(Object[] state) {
        panes = (Map<Object, KeyPanes>) state[0];
    }

    @Override
    void onRecord(Object value, long ts) throws Exception {
        requireTimestamp(ts, value);
        long lastStart = ts - Math.floorMod(ts, slide);
        if (plus(lastStart + size - 1, lateness) <= watermark) {
            late(value);
            return;
        }
        Object key = keyOfRecord(value);
        KeyPanes keyPanes = panes.computeIfAbsent(key, k -> new KeyPanes());
        long paneStart = ts - Math.floorMod(ts, pane);
        keyPanes.byStart.put(paneStart, add(keyPanes.byStart.get(paneStart), value));
        if (keyPanes.inRun(paneStart)) {
            keyPanes.running = add(keyPanes.running, value);
        }
        long first = lastStart - (lastStart + size - ts - 1) / slide * slide;
        for (long start = first; start <= lastStart; start += slide) {
            long maxTimestamp = start + size - 1;
            if (maxTimestamp > watermark) {
                keyPanes.schedule(timers, key, maxTimestamp);
                return;
            }
            if (plus(maxTimestamp, lateness) > watermark) {
                fireWindow(key, keyPanes, start);
            }
        }
        // Every window of this record fired already (it came within the lateness): a timer still removes the pane.
        keyPanes.schedule(timers, key, purgeTime(paneStart));
    }

    @Override
    void onTimer(Object key, long time) throws Exception {
        KeyPanes keyPanes = panes.get(key);
        if (keyPanes == null) {
            return;
        }
        long end = time + 1;
        if (Math.floorMod(end - size, slide) == 0) {
            fireWindow(key, keyPanes, end - size);
        }
        // By the timer's time, not the watermark: at the end of the stream (watermark MAX) the key's later
        // windows still have to fire from their panes, in order.
        while (!keyPanes.byStart.isEmpty() && purgeTime(keyPanes.byStart.firstKey()) <= time) {
            Map.Entry<Long, Object> purged = keyPanes.byStart.pollFirstEntry();
            if (keyPanes.inRun(purged.getKey())) {
                keyPanes.running = aggregate.deduct(keyPanes.running, purged.getValue());
            }
        }
        if (keyPanes.byStart.isEmpty()) {
            panes.remove(key);
            return;
        }
        Long next = keyPanes.byStart.ceilingKey(end + slide - size);
        if (next != null) {
            keyPanes.nextTimer = Long.MAX_VALUE;
            keyPanes.schedule(timers, key, Math.max(end + slide, earliestEnd(next)) - 1);
        } else {
            keyPanes.nextTimer = Long.MAX_VALUE;
            keyPanes.schedule(timers, key, purgeTime(keyPanes.byStart.lastKey()));
        }
    }

    private void fireWindow(Object key, KeyPanes keyPanes, long start) throws Exception {
        NavigableMap<Long, Object> inWindow = keyPanes.byStart.subMap(start, true, start + size, false);
        if (inWindow.isEmpty()) {
            return;
        }
        Object accumulator;
        if (running && (keyPanes.running == null || start > keyPanes.runStart)) {
            accumulator = slideRun(keyPanes, start);
        } else if (running && start == keyPanes.runStart) {
            accumulator = keyPanes.running;
        } else if (inWindow.size() == 1 && size == pane) {
            accumulator = inWindow.firstEntry().getValue();
        } else {
            accumulator = aggregate.create();
            for (Object paneAccumulator : inWindow.values()) {
                accumulator = aggregate.combine(accumulator, paneAccumulator);
            }
        }
        fire(key, start, start + size, accumulator);
    }

    /** Moves the key's running range to the window that starts at {@code start}; returns its accumulator. */
    private Object slideRun(KeyPanes keyPanes, long start) {
        long end = start + size;
        if (keyPanes.running == null || start >= keyPanes.runEnd) {
            Object accumulator = aggregate.create();
            for (Object paneAccumulator :
                    keyPanes.byStart.subMap(start, true, end, false).values()) {
                accumulator = aggregate.combine(accumulator, paneAccumulator);
            }
            keyPanes.running = accumulator;
        } else {
            Object accumulator = keyPanes.running;
            for (Object left : keyPanes.byStart
                    .subMap(keyPanes.runStart, true, start, false)
                    .values()) {
                accumulator = aggregate.deduct(accumulator, left);
            }
            for (Object reached :
                    keyPanes.byStart.subMap(keyPanes.runEnd, true, end, false).values()) {
                accumulator = aggregate.combine(accumulator, reached);
            }
            keyPanes.running = accumulator;
        }
        keyPanes.runStart = start;
        keyPanes.runEnd = end;
        return keyPanes.running;
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
