package org.fastflowj.stream.internal;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.function.Function;
import org.fastflowj.stream.Aggregate;

/**
 * Tumbling windows, and sliding windows of an aggregate that deducts, computed by frames as Jet does:
 * the operator keeps one map of key to accumulator per frame of {@code gcd(size, slide)}, and for a
 * sliding window one running map of key to accumulator for the window fired last, {@code [runStart,
 * runEnd)}: always the combination of the stored frames in that range. When the watermark passes the next
 * window's end, the frames it leaves are deducted from the running map, the frames it reaches combined
 * into it, and every key in it fires. No timer per key: a slide costs the keys of two frames and the
 * window's keys' results, whatever size / slide is, and a record costs one map update.
 *
 * <p>Flink's semantics, as {@link PanedWindowOperator}: a window fires when the watermark reaches
 * {@code end - 1}, a record whose every window has {@code end - 1 + lateness <= watermark} is late, and a
 * record within the lateness makes its key's fired windows fire again. A frame is dropped once every
 * window holding it is past its lateness and the running range left it.
 */
public final class FrameWindowOperator extends WindowOperator {
    private final long size;
    private final long slide;
    private final long frame;
    private final boolean tumbling;
    private final Frames frames = new Frames();
    private final HashMap<Object, Running> running = new HashMap<>();
    private long runStart = Long.MIN_VALUE;
    private long runEnd = Long.MIN_VALUE;
    /** The end of the next window to fire; MIN until the first record. */
    private long nextEnd = Long.MIN_VALUE;

    /** A key's accumulator over the running range, and how many of the range's frames hold the key. */
    private static final class Running {
        Object accumulator;
        int frames;

        Running(Object accumulator) {
            this.accumulator = accumulator;
        }
    }

    public FrameWindowOperator(
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
        this.frame = gcd(size, slide);
        this.tumbling = size == slide;
        if (!tumbling && !this.aggregate.canDeduct()) {
            throw new IllegalArgumentException("frames of a sliding window need an aggregate that deducts");
        }
    }

    /** Whether this operator computes {@code size, slide} windows of {@code aggregate}. */
    public static boolean handles(long size, long slide, Aggregate<?, ?, ?> aggregate) {
        return size == slide || aggregate.canDeduct();
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
        long frameStart = ts - Math.floorMod(ts, frame);
        HashMap<Object, Object> keys = frames.at(frameStart);
        Object before = keys.get(key);
        keys.put(key, add(before, value));
        if (!tumbling && frameStart >= runStart && frameStart < runEnd) {
            Running r = running.get(key);
            if (r == null) {
                r = new Running(aggregate.create());
                running.put(key, r);
            }
            r.accumulator = add(r.accumulator, value);
            if (before == null) {
                r.frames++;
            }
        }
        for (long end = firstEnd(ts); end <= lastStart + size; end += slide) {
            if (end - 1 > watermark) {
                if (nextEnd == Long.MIN_VALUE || end < nextEnd) {
                    nextEnd = end;
                }
                return;
            }
            if (plus(end - 1, lateness) > watermark) {
                // Within the lateness: a window of this record that fired already fires again for its key.
                refire(key, end - size);
            }
        }
    }

    /** The end of the first window holding time {@code ts}. */
    private long firstEnd(long ts) {
        long lastStart = ts - Math.floorMod(ts, slide);
        return lastStart - (lastStart + size - ts - 1) / slide * slide + size;
    }

    private void refire(Object key, long start) throws Exception {
        Object accumulator = aggregate.create();
        boolean any = false;
        for (HashMap<Object, Object> keys :
                frames.byStart.subMap(start, true, start + size, false).values()) {
            Object acc = keys.get(key);
            if (acc != null) {
                accumulator = aggregate.combine(accumulator, acc);
                any = true;
            }
        }
        if (any) {
            fire(key, start, start + size, accumulator);
        }
    }

    @Override
    void advance(long time) throws Exception {
        while (nextEnd != Long.MIN_VALUE && nextEnd - 1 <= time) {
            long start = nextEnd - size;
            if (tumbling) {
                HashMap<Object, Object> keys = frames.byStart.get(start);
                if (keys != null) {
                    for (Map.Entry<Object, Object> e : keys.entrySet()) {
                        fire(e.getKey(), start, nextEnd, e.getValue());
                    }
                }
            } else {
                slideTo(start, nextEnd);
                for (Map.Entry<Object, Running> e : running.entrySet()) {
                    fire(e.getKey(), start, nextEnd, e.getValue().accumulator);
                }
            }
            runStart = start;
            runEnd = nextEnd;
            purge(time);
            nextEnd = following(nextEnd);
        }
    }

    /** The end of the window to fire after the one ending at {@code end}; MIN when nothing is left to fire. */
    private long following(long end) {
        if (!running.isEmpty()) {
            return end + slide;
        }
        Long next = frames.byStart.ceilingKey(tumbling ? end : runEnd);
        if (next == null) {
            return Long.MIN_VALUE;
        }
        return Math.max(end + slide, firstEnd(next));
    }

    /** Moves the running range to {@code [start, end)}: deducts the frames it leaves, combines those it reaches. */
    private void slideTo(long start, long end) {
        for (HashMap<Object, Object> keys : frames.byStart
                .subMap(runStart, true, Math.min(start, runEnd), false)
                .values()) {
            for (Map.Entry<Object, Object> e : keys.entrySet()) {
                Running r = running.get(e.getKey());
                if (--r.frames == 0) {
                    running.remove(e.getKey());
                } else {
                    r.accumulator = aggregate.deduct(r.accumulator, e.getValue());
                }
            }
        }
        for (HashMap<Object, Object> keys :
                frames.byStart.subMap(Math.max(start, runEnd), true, end, false).values()) {
            for (Map.Entry<Object, Object> e : keys.entrySet()) {
                Running r = running.get(e.getKey());
                if (r == null) {
                    r = new Running(aggregate.create());
                    running.put(e.getKey(), r);
                }
                r.accumulator = aggregate.combine(r.accumulator, e.getValue());
                r.frames++;
            }
        }
    }

    /** Drops the frames before the running range whose last window is past its lateness. */
    private void purge(long time) {
        NavigableMap<Long, HashMap<Object, Object>> before =
                frames.byStart.headMap(tumbling ? runEnd : runStart, false);
        for (Iterator<Long> it = before.keySet().iterator(); it.hasNext(); ) {
            long frameStart = it.next();
            long lastEnd = frameStart - Math.floorMod(frameStart, slide) + size;
            if (plus(lastEnd - 1, lateness) > time) {
                return;
            }
            frames.removed(frameStart);
            it.remove();
        }
    }

    @Override
    void onTimer(Object key, long time) {
        throw new IllegalStateException("frame windows fire on the watermark, not on timers");
    }
}
