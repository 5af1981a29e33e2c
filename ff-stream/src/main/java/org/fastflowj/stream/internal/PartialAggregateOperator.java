package org.fastflowj.stream.internal;

import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;
import org.fastflowj.stream.Aggregate;

/**
 * The first of a window's two stages, as Jet's and Flink's local aggregation: it runs fused into the
 * instance that reads the records, before they are routed by key, and keeps one accumulator per key and
 * frame ({@code gcd(size, slide)}) of its own records. When its watermark passes a frame's end it sends
 * each key's accumulator as one {@link Partial}, then the watermark: only partials cross the channels,
 * and the window's instance combines them as it would have added the records.
 *
 * <p>Why the results do not change: a frame's partials leave before the watermark that closes the frame,
 * on the same channel, so the window's instance has them before its own watermark (the minimum over its
 * inputs) can reach the frame's windows. A record of a frame already sent (late here) goes on as it is,
 * and the window's instance judges its lateness as it would have. An input that goes idle first sends
 * what it holds, since the window's instance stops waiting for it.
 *
 * <p>It passes on only the watermarks that cross a multiple of {@code g = gcd(frame, lateness)} (as
 * {@code k * g - 1}), as Jet throttles watermarks by frame: every time the window compares a watermark
 * with (a window's {@code end - 1}, with {@code end - 1 + lateness}) is of that form, so the window fires,
 * judges lateness and re-fires exactly as with every watermark, while a stream whose every record moves the
 * watermark on sends one mark per granule, not one per record. Operators after the window see the coarser
 * watermarks, which Flink's periodic watermarks never promise to be finer.
 */
public final class PartialAggregateOperator extends Operator {
    private final Function<Object, Object> keyOf;
    private final Aggregate<Object, Object, Object> aggregate;
    /** The aggregate when it is a sum of longs, whose frames keep plain sums; else null. */
    private final LongSum<Object> longSum;

    private final long frame;
    /** Watermarks are passed on at multiples of this, less one (see the class comment). */
    private final long granule;

    private long passedOn = Long.MIN_VALUE;
    private Frames frames;
    /** The frame of the last record; none at first. */
    private long frameStart = 1;

    private long frameEnd = 0;
    /** The end of the earliest frame held; MAX when none. */
    private long firstEnd = Long.MAX_VALUE;

    @SuppressWarnings("unchecked")
    public PartialAggregateOperator(
            Function<?, ?> keyOf, Aggregate<?, ?, ?> aggregate, long size, long slide, long lateness) {
        this.keyOf = (Function<Object, Object>) keyOf;
        this.aggregate = (Aggregate<Object, Object, Object>) aggregate;
        this.longSum = aggregate instanceof LongSum<?> sum ? (LongSum<Object>) sum : null;
        this.frames = new Frames(longSum != null);
        this.frame = WindowOperator.gcd(size, slide);
        this.granule = WindowOperator.gcd(frame, lateness);
    }

    @Override
    Object[] saveState() {
        return new Object[] {frames, passedOn, frameStart, frameEnd, firstEnd};
    }

    @Override
    void loadState(Object[] state) {
        frames = (Frames) state[0];
        passedOn = (Long) state[1];
        frameStart = (Long) state[2];
        frameEnd = (Long) state[3];
        firstEnd = (Long) state[4];
    }

    @Override
    public void processRecord(Object value, long ts) {
        WindowOperator.requireTimestamp(ts, value);
        if (ts < frameStart || ts >= frameEnd) {
            // Most records fall in the frame of the one before, and take no division.
            frameStart = ts - Math.floorMod(ts, frame);
            frameEnd = WindowOperator.plus(frameStart, frame);
        }
        long frameStart = this.frameStart;
        long frameEnd = this.frameEnd;
        if (frameEnd - 1 <= watermark) {
            out.emit(value, ts);
            return;
        }
        Object key = keyOf.apply(value);
        if (key == null) {
            throw new RecordFailure(
                    info.qualifiedName(), RecordFailure.describe(value), new NullPointerException("its key is null"));
        }
        KeyTable keys = frames.at(frameStart);
        firstEnd = Math.min(firstEnd, frameEnd);
        int slot = keys.slotOf(key);
        if (longSum != null) {
            keys.addToSum(slot, longSum.valueOf(value));
        } else {
            Object before = keys.valueAt(slot);
            keys.setValueAt(slot, aggregate.add(before == null ? aggregate.create() : before, value));
        }
    }

    @Override
    public void processWatermark(long time) {
        if (firstEnd - 1 <= time) {
            sendUpTo(time);
        }
        if (time < Long.MIN_VALUE + granule) {
            return; // no granule ends this early
        }
        long granted = time == Long.MAX_VALUE ? time : time - Math.floorMod(time + 1, granule);
        if (granted > passedOn) {
            passedOn = granted;
            out.emitWatermark(granted);
        }
    }

    @Override
    public void processIdle() {
        sendUpTo(Long.MAX_VALUE);
        out.emitSignal(Signal.IDLE);
    }

    /** Sends the partials of every frame whose end - 1 is at or before {@code time}. */
    private void sendUpTo(long time) {
        for (Iterator<Map.Entry<Long, KeyTable>> it = frames.byStart.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Long, KeyTable> entry = it.next();
            long frameStart = entry.getKey();
            if (frameStart + frame - 1 > time) {
                break;
            }
            KeyTable keys = entry.getValue();
            for (int slot = 0, slots = keys.slots(); slot < slots; slot++) {
                if (keys.used(slot)) {
                    Partial partial = longSum != null
                            ? new Partial(keys.keyAt(slot), keys.sumAt(slot))
                            : new Partial(keys.keyAt(slot), keys.valueAt(slot));
                    out.emit(partial, frameStart);
                }
            }
            frames.drop(keys, it);
        }
        firstEnd = frames.byStart.isEmpty() ? Long.MAX_VALUE : frames.byStart.firstKey() + frame;
    }
}
