package org.fastflowj.stream.internal;

import java.util.function.Function;

/**
 * One key's records of one frame (or pane) of a window, already aggregated by the instance that read them
 * ({@link PartialAggregateOperator}), on its way to the window's instance for that key, which combines it
 * as it would have added the records. Its event time is the frame's start.
 */
public final class Partial {
    final Object key;
    /** The key's accumulator; null for a {@link LongSum}'s partial, which carries {@link #sum}. */
    final Object accumulator;

    final long sum;

    Partial(Object key, Object accumulator) {
        this.key = key;
        this.accumulator = accumulator;
        this.sum = 0;
    }

    Partial(Object key, long sum) {
        this.key = key;
        this.accumulator = null;
        this.sum = sum;
    }

    /** The key of a record by {@code key}, or of a partial its own key: how a window's second stage is routed. */
    @SuppressWarnings("unchecked")
    public static Function<Object, Object> keyOr(Function<?, ?> key) {
        Function<Object, Object> recordKey = (Function<Object, Object>) key;
        return value -> value instanceof Partial partial ? partial.key : recordKey.apply(value);
    }

    @Override
    public String toString() {
        return "Partial(" + key + ": " + (accumulator != null ? accumulator : sum) + ")";
    }
}
