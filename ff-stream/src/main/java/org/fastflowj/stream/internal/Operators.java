package org.fastflowj.stream.internal;

import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/** The stateless operators: map, filter, flatMap, identity (a union's merge), timestamp assignment. */
public final class Operators {
    private Operators() {}

    public static Operator map(Function<?, ?> function) {
        return new MapOperator(function);
    }

    public static Operator filter(Predicate<?> predicate) {
        return new FilterOperator(predicate);
    }

    /**
     * A map, a final class of its own so that a fused chain calls it from a call site that sees only this
     * class ({@link OperatorNode#record}): a direct call the compiler inlines, not a dispatch over every kind.
     */
    static final class MapOperator extends Operator {
        private final Function<Object, Object> f;

        @SuppressWarnings("unchecked")
        MapOperator(Function<?, ?> function) {
            this.f = (Function<Object, Object>) function;
        }

        @Override
        public void processRecord(Object value, long timestamp) {
            Object result = f.apply(value);
            if (result == null) {
                throw new NullPointerException("map returned null (use filter or flatMap to drop records)");
            }
            out.emit(result, timestamp);
        }
    }

    /** A filter, a final class of its own for the reason {@link MapOperator} is. */
    static final class FilterOperator extends Operator {
        private final Predicate<Object> p;

        @SuppressWarnings("unchecked")
        FilterOperator(Predicate<?> predicate) {
            this.p = (Predicate<Object>) predicate;
        }

        @Override
        public void processRecord(Object value, long timestamp) {
            if (p.test(value)) {
                out.emit(value, timestamp);
            }
        }
    }

    @SuppressWarnings("unchecked")
    public static Operator flatMap(BiConsumer<?, ?> function) {
        BiConsumer<Object, Consumer<Object>> f = (BiConsumer<Object, Consumer<Object>>) function;
        return new Operator() {
            private long current;
            private final Consumer<Object> emit = result -> out.emit(result, current);

            @Override
            public void processRecord(Object value, long timestamp) {
                current = timestamp;
                f.accept(value, emit);
            }
        };
    }

    public static Operator identity() {
        return new Operator() {
            @Override
            public void processRecord(Object value, long timestamp) {
                out.emit(value, timestamp);
            }
        };
    }

    /**
     * Gives each record its event time and makes the watermarks from them: {@code maxTimestamp - disorder -
     * 1} (Flink's bounded out-of-orderness), sent whenever it advances, before the record that advanced it. Watermarks from upstream are
     * replaced, except the end of the input. With an idle timeout, an instance that saw no record for
     * that long (checked at each tick, so no clock is read per record) says it is idle.
     */
    @SuppressWarnings("unchecked")
    public static Operator timestamps(ToLongFunction<?> timestampOf, long disorderMillis, long idleMillis) {
        ToLongFunction<Object> f = (ToLongFunction<Object>) timestampOf;
        long idleNanos = idleMillis * 1_000_000;
        return new Operator() {
            private long maxTimestamp = Long.MIN_VALUE;
            private long emitted = Long.MIN_VALUE;
            private long records;
            private long recordsAtLastTick = -1;
            private long quietSince;
            private boolean idle;

            @Override
            Object[] saveState() {
                return new Object[] {maxTimestamp, emitted};
            }

            @Override
            void loadState(Object[] state) {
                maxTimestamp = (Long) state[0];
                emitted = (Long) state[1];
            }

            @Override
            public void processTick() {
                if (idleNanos > 0) {
                    long now = System.nanoTime();
                    if (records != recordsAtLastTick) {
                        recordsAtLastTick = records;
                        quietSince = now;
                        idle = false;
                    } else if (!idle && now - quietSince >= idleNanos) {
                        idle = true;
                        out.emitSignal(Signal.IDLE);
                    }
                }
                out.emitSignal(Signal.TICK);
            }

            @Override
            public void processIdle() {
                // The idleness of this stream is judged here, from its records.
            }

            @Override
            public void processRecord(Object value, long timestamp) {
                records++;
                long ts = f.applyAsLong(value);
                if (ts > maxTimestamp) {
                    maxTimestamp = ts;
                    long mark = ts - disorderMillis - 1;
                    // Before the record that moved it (which is above it): what it completes fires first.
                    if (mark > emitted) {
                        emitted = mark;
                        out.emitWatermark(mark);
                    }
                }
                out.emit(value, ts);
            }

            @Override
            public void processWatermark(long time) {
                if (time == Long.MAX_VALUE) {
                    out.emitWatermark(time);
                }
            }
        };
    }
}
