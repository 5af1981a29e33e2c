package org.fastflowj.stream.internal;

import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/** The stateless operators: map, filter, flatMap, identity (a union's merge), timestamp assignment. */
public final class Operators {
    private Operators() {}

    @SuppressWarnings("unchecked")
    public static Operator map(Function<?, ?> function) {
        Function<Object, Object> f = (Function<Object, Object>) function;
        return new Operator() {
            @Override
            public void processRecord(Object value, long timestamp) {
                Object result = f.apply(value);
                if (result == null) {
                    throw new NullPointerException("map returned null (use filter or flatMap to drop records)");
                }
                out.emit(result, timestamp);
            }
        };
    }

    @SuppressWarnings("unchecked")
    public static Operator filter(Predicate<?> predicate) {
        Predicate<Object> p = (Predicate<Object>) predicate;
        return new Operator() {
            @Override
            public void processRecord(Object value, long timestamp) {
                if (p.test(value)) {
                    out.emit(value, timestamp);
                }
            }
        };
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
     * replaced, except the end of the input.
     */
    @SuppressWarnings("unchecked")
    public static Operator timestamps(ToLongFunction<?> timestampOf, long disorderMillis) {
        ToLongFunction<Object> f = (ToLongFunction<Object>) timestampOf;
        return new Operator() {
            private long maxTimestamp = Long.MIN_VALUE;
            private long emitted = Long.MIN_VALUE;

            @Override
            public void processRecord(Object value, long timestamp) {
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
