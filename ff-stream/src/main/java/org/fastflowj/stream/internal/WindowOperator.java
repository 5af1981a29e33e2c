package org.fastflowj.stream.internal;

import java.util.function.Function;
import org.fastflowj.stream.Aggregate;

/**
 * The part every keyed window operator shares: the key, the aggregate, the emitter, event-time timers
 * fired at each watermark, and the late path (counted; sent to the late sink if there is one).
 */
public abstract class WindowOperator extends Operator {
    final Function<Object, Object> keyOf;
    final Aggregate<Object, Object, Object> aggregate;
    final WindowEmitter emitter;
    final long lateness;
    final SideSink<Object> lateSink;
    EventTimers timers = new EventTimers();
    private boolean processingTime;
    private long clock = Long.MIN_VALUE;

    @SuppressWarnings("unchecked")
    WindowOperator(
            Function<?, ?> keyOf,
            Aggregate<?, ?, ?> aggregate,
            WindowEmitter emitter,
            long lateness,
            SideSink<?> lateSink) {
        this.keyOf = (Function<Object, Object>) keyOf;
        this.aggregate = (Aggregate<Object, Object, Object>) aggregate;
        this.emitter = emitter;
        this.lateness = lateness;
        this.lateSink = (SideSink<Object>) lateSink;
    }

    /**
     * Runs the windows on the wall clock: a record takes the time it arrives, and the operator's own time
     * ({@link #watermark}, which the window code reads) follows the ticks, while the watermarks from
     * upstream pass through untouched.
     */
    public final void inProcessingTime() {
        processingTime = true;
    }

    /** The objects holding the windows' own state (beside the timers and the clock). */
    abstract Object[] saveWindows();

    abstract void loadWindows(Object[] state);

    @Override
    final Object[] saveState() {
        return new Object[] {timers, clock, saveWindows()};
    }

    @Override
    final void loadState(Object[] state) {
        timers = (EventTimers) state[0];
        clock = (Long) state[1];
        loadWindows((Object[]) state[2]);
    }

    abstract void onRecord(Object value, long timestamp) throws Exception;

    abstract void onTimer(Object key, long time) throws Exception;

    @Override
    public final void processRecord(Object value, long timestamp) throws Exception {
        if (value instanceof Partial partial) {
            try {
                onRecord(value, timestamp);
            } catch (RecordFailure failure) {
                throw failure;
            } catch (Exception error) {
                // Many records combined: a failure here is the job's, never one record's to skip.
                throw new RecordFailure(
                        info.qualifiedName(),
                        "the partial aggregate of key " + RecordFailure.describe(partial.key),
                        error);
            }
        } else if (processingTime) {
            // The wall clock may step back; the operator's time may not (nor wrap once it reached the end).
            onRecord(value, Math.max(System.currentTimeMillis(), plus(clock, 1)));
        } else {
            onRecord(value, timestamp);
        }
    }

    @Override
    public void processWatermark(long time) throws Exception {
        if (processingTime) {
            watermark = clock;
            if (time == Long.MAX_VALUE) {
                fireUpTo(Long.MAX_VALUE);
            }
        } else {
            fireUpTo(time);
        }
        out.emitWatermark(time);
    }

    @Override
    public void processTick() throws Exception {
        if (processingTime) {
            fireUpTo(System.currentTimeMillis() - 1);
        }
        super.processTick();
    }

    private void fireUpTo(long time) throws Exception {
        if (processingTime) {
            if (time <= clock) {
                return;
            }
            clock = time;
            watermark = time;
        }
        advance(time);
    }

    /** Fires what is due once the operator's time reached {@code time}: by default, the keys' timers. */
    void advance(long time) throws Exception {
        for (EventTimers.Timer timer = timers.pollDue(time); timer != null; timer = timers.pollDue(time)) {
            onTimer(timer.key(), timer.time());
        }
    }

    /** The key of a record, or of a {@link Partial} from the window's first stage. */
    final Object keyOfRecord(Object value) {
        return value instanceof Partial partial ? partial.key : keyOf.apply(value);
    }

    /**
     * {@code accumulator} (null: a new one) with a record added, or a {@link Partial} combined: the
     * partial's accumulator is the window's to keep from then on.
     */
    final Object add(Object accumulator, Object value) {
        if (value instanceof Partial partial) {
            return accumulator == null ? partial.accumulator : aggregate.combine(accumulator, partial.accumulator);
        }
        return aggregate.add(accumulator == null ? aggregate.create() : accumulator, value);
    }

    final void fire(Object key, long start, long end, Object accumulator) throws Exception {
        emitter.emit(key, start, end, aggregate.result(accumulator), end - 1, out);
    }

    final void late(Object value) throws Exception {
        if (value instanceof Partial) {
            // A partial leaves its first stage before the watermark that closes its frame
            // (PartialAggregateOperator): one that comes late is a fault of the engine, not of a record.
            throw new IllegalStateException("a partial aggregate came late");
        }
        info.counters().late().increment();
        if (lateSink != null) {
            out.emitSide(lateSink.record(value));
        }
    }

    /** The pane (or frame) of windows of {@code size} sliding by {@code slide}: their greatest common divisor. */
    static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    static long plus(long time, long delta) {
        return time > Long.MAX_VALUE - delta ? Long.MAX_VALUE : time + delta;
    }

    static void requireTimestamp(long timestamp, Object value) {
        if (timestamp == Rec.NO_TIMESTAMP) {
            throw new IllegalStateException("the record has no event time (call withTimestamps before keyBy)");
        }
    }
}
