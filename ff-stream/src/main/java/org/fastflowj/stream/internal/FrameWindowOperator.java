package org.fastflowj.stream.internal;

import java.util.Iterator;
import java.util.Map;
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
    /** The aggregate when it is a sum of longs: the frames and the running range keep plain sums; else null. */
    private final LongSum<Object> longSum;

    private Frames frames;
    /** Each key's accumulator over the running range, with how many of the range's frames hold the key. */
    private KeyTable running;

    private long runStart = Long.MIN_VALUE;
    private long runEnd = Long.MIN_VALUE;
    /** The end of the next window to fire; MIN until the first record. */
    private long nextEnd = Long.MIN_VALUE;
    /** The frame of the last record, {@code [frameStart, frameEnd)}: none at first. */
    private long frameStart = 1;

    private long frameEnd = 0;
    /** The start of the last window and the end of the first window that hold that frame. */
    private long lastStart;

    private long firstEnd;

    @SuppressWarnings("unchecked")
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
        this.longSum = aggregate instanceof LongSum<?> sum ? (LongSum<Object>) sum : null;
        this.frames = new Frames(longSum != null);
        this.running = longSum != null ? KeyTable.ofSums() : new KeyTable();
        if (!tumbling && !this.aggregate.canDeduct()) {
            throw new IllegalArgumentException("frames of a sliding window need an aggregate that deducts");
        }
    }

    /** Whether this operator computes {@code size, slide} windows of {@code aggregate}. */
    public static boolean handles(long size, long slide, Aggregate<?, ?, ?> aggregate) {
        return size == slide || aggregate.canDeduct();
    }

    @Override
    Object[] saveWindows() {
        return new Object[] {frames, running, runStart, runEnd, nextEnd, frameStart, frameEnd, lastStart, firstEnd};
    }

    @Override
    void loadWindows(Object[] state) {
        frames = (Frames) state[0];
        running = (KeyTable) state[1];
        runStart = (Long) state[2];
        runEnd = (Long) state[3];
        nextEnd = (Long) state[4];
        frameStart = (Long) state[5];
        frameEnd = (Long) state[6];
        lastStart = (Long) state[7];
        firstEnd = (Long) state[8];
    }

    @Override
    void onRecord(Object value, long ts) throws Exception {
        requireTimestamp(ts, value);
        if (ts < frameStart || ts >= frameEnd) {
            locate(ts);
        }
        long lastStart = this.lastStart;
        if (plus(lastStart + size - 1, lateness) <= watermark) {
            late(value);
            return;
        }
        Object key = keyOfRecord(value);
        long frameStart = this.frameStart;
        KeyTable keys = frames.at(frameStart);
        int keysBefore = keys.size();
        int slot = keys.slotOf(key);
        boolean newInFrame = keys.size() != keysBefore;
        boolean inRunningRange = !tumbling && frameStart >= runStart && frameStart < runEnd;
        if (longSum != null) {
            long v = value instanceof Partial partial ? partial.sum : longSum.valueOf(value);
            keys.addToSum(slot, v);
            if (inRunningRange) {
                int r = running.slotOf(key);
                running.addToSum(r, v);
                if (newInFrame) {
                    running.setCountAt(r, running.countAt(r) + 1);
                }
            }
        } else {
            keys.setValueAt(slot, add(keys.valueAt(slot), value));
            if (inRunningRange) {
                int r = runningSlot(key);
                running.setValueAt(r, add(running.valueAt(r), value));
                if (newInFrame) {
                    running.setCountAt(r, running.countAt(r) + 1);
                }
            }
        }
        for (long end = firstEnd; end <= lastStart + size; end += slide) {
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

    /**
     * Sets the frame of time {@code ts} and what follows from it, the same for every time in the frame
     * (slide is a multiple of frame): most records fall in the frame of the one before, and take no division.
     */
    private void locate(long ts) {
        frameStart = ts - Math.floorMod(ts, frame);
        frameEnd = plus(frameStart, frame);
        lastStart = ts - Math.floorMod(ts, slide);
        firstEnd = firstEnd(ts);
    }

    /** The end of the first window holding time {@code ts}. */
    private long firstEnd(long ts) {
        long lastStart = ts - Math.floorMod(ts, slide);
        return lastStart - (lastStart + size - ts - 1) / slide * slide + size;
    }

    private void refire(Object key, long start) throws Exception {
        Object accumulator = longSum != null ? null : aggregate.create();
        long sum = 0;
        boolean any = false;
        for (KeyTable keys :
                frames.byStart.subMap(start, true, start + size, false).values()) {
            int slot = keys.find(key);
            if (slot >= 0) {
                if (longSum != null) {
                    sum += keys.sumAt(slot);
                } else {
                    accumulator = aggregate.combine(accumulator, keys.valueAt(slot));
                }
                any = true;
            }
        }
        if (any && longSum != null) {
            fireSum(key, start, start + size, sum);
        } else if (any) {
            fire(key, start, start + size, accumulator);
        }
    }

    @Override
    void advance(long time) throws Exception {
        while (nextEnd != Long.MIN_VALUE && nextEnd - 1 <= time) {
            long start = nextEnd - size;
            if (tumbling) {
                KeyTable keys = frames.byStart.get(start);
                if (keys != null) {
                    fireAll(keys, start, nextEnd);
                }
            } else {
                slideTo(start, nextEnd);
                fireAll(running, start, nextEnd);
            }
            runStart = start;
            runEnd = nextEnd;
            purge(time);
            nextEnd = following(nextEnd);
        }
    }

    private void fireAll(KeyTable keys, long start, long end) throws Exception {
        for (int slot = 0, slots = keys.slots(); slot < slots; slot++) {
            if (keys.used(slot)) {
                if (longSum != null) {
                    fireSum(keys.keyAt(slot), start, end, keys.sumAt(slot));
                } else {
                    fire(keys.keyAt(slot), start, end, keys.valueAt(slot));
                }
            }
        }
    }

    /** {@link #fire} for a key's sum, which is its result. */
    private void fireSum(Object key, long start, long end, long sum) throws Exception {
        emitter.emit(key, start, end, sum, end - 1, out);
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
        for (KeyTable keys : frames.byStart
                .subMap(runStart, true, Math.min(start, runEnd), false)
                .values()) {
            for (int slot = 0, slots = keys.slots(); slot < slots; slot++) {
                if (keys.used(slot)) {
                    int r = running.findLike(keys, slot);
                    int holding = running.countAt(r) - 1;
                    if (holding == 0) {
                        running.removeAt(r);
                    } else {
                        running.setCountAt(r, holding);
                        if (longSum != null) {
                            running.addToSum(r, -keys.sumAt(slot));
                        } else {
                            running.setValueAt(r, aggregate.deduct(running.valueAt(r), keys.valueAt(slot)));
                        }
                    }
                }
            }
        }
        for (KeyTable keys :
                frames.byStart.subMap(Math.max(start, runEnd), true, end, false).values()) {
            for (int slot = 0, slots = keys.slots(); slot < slots; slot++) {
                if (keys.used(slot)) {
                    int r = running.slotOfLike(keys, slot);
                    if (longSum != null) {
                        running.addToSum(r, keys.sumAt(slot));
                    } else {
                        Object accumulator = running.valueAt(r);
                        running.setValueAt(
                                r,
                                aggregate.combine(
                                        accumulator == null ? aggregate.create() : accumulator, keys.valueAt(slot)));
                    }
                    running.setCountAt(r, running.countAt(r) + 1);
                }
            }
        }
    }

    /** The slot of {@code key} in the running range, added with a new accumulator if it was absent. */
    private int runningSlot(Object key) {
        int r = running.slotOf(key);
        if (running.valueAt(r) == null) {
            running.setValueAt(r, aggregate.create());
        }
        return r;
    }

    /** Drops the frames before the running range whose last window is past its lateness. */
    private void purge(long time) {
        for (Iterator<Map.Entry<Long, KeyTable>> it = frames.byStart
                        .headMap(tumbling ? runEnd : runStart, false)
                        .entrySet()
                        .iterator();
                it.hasNext(); ) {
            Map.Entry<Long, KeyTable> frame = it.next();
            long frameStart = frame.getKey();
            long lastEnd = frameStart - Math.floorMod(frameStart, slide) + size;
            if (plus(lastEnd - 1, lateness) > time) {
                return;
            }
            frames.drop(frame.getValue(), it);
        }
    }

    @Override
    void onTimer(Object key, long time) {
        throw new IllegalStateException("frame windows fire on the watermark, not on timers");
    }
}
