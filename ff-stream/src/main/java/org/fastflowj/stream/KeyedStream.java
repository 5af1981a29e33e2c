package org.fastflowj.stream;

import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.Supplier;
import org.fastflowj.stream.internal.Exchange;
import org.fastflowj.stream.internal.ProcessOperator;
import org.fastflowj.stream.internal.RollingOperator;

/**
 * A stream routed by key: an all-to-all whose routers hash each key into one of 128 key groups, the key
 * groups spread over the next operator's instances in contiguous ranges.
 *
 * @param <K> the key's type
 * @param <T> the records' type
 */
public final class KeyedStream<K, T> {
    final DataStream<T> input;
    final Function<? super T, ? extends K> key;

    KeyedStream(DataStream<T> input, Function<? super T, ? extends K> key) {
        this.input = input;
        this.key = key;
    }

    Exchange exchange() {
        return Exchange.keyed(key);
    }

    /** A rolling reduce: each record emits its key's records reduced so far. */
    public DataStream<T> reduce(BinaryOperator<T> f) {
        return aggregate(Aggregates.reducing(Objects.requireNonNull(f, "f")));
    }

    /** A rolling aggregate: each record emits its key's result so far. */
    public <R> DataStream<R> aggregate(Aggregate<? super T, ?, R> aggregate) {
        Objects.requireNonNull(aggregate, "aggregate");
        return input.then("aggregate", exchange(), i -> new RollingOperator(key, aggregate), input.timed);
    }

    /** Runs one function per instance, from {@code function}, with keyed state and event-time timers. */
    public <R> DataStream<R> process(Supplier<? extends KeyedProcessFunction<K, T, R>> function) {
        Objects.requireNonNull(function, "function");
        return input.then("process", exchange(), i -> new ProcessOperator(key, function.get()), input.timed);
    }

    /**
     * An interval join of this stream (the left side) with {@code other}, keyed alike: {@code
     * intervalJoin(other).between(lower, upper).apply(f)}; see {@link IntervalJoin}.
     */
    public <R> IntervalJoin<K, T, R> intervalJoin(KeyedStream<K, R> other) {
        Objects.requireNonNull(other, "other");
        if (other.input.job != input.job) {
            throw new IllegalArgumentException(
                    "intervalJoin: stream '" + other.input.transform.name() + "' belongs to another job");
        }
        return new IntervalJoin<>(this, other);
    }

    /** Groups each key's records into windows. */
    public WindowedStream<K, T> window(Windows windows) {
        Objects.requireNonNull(windows, "windows");
        if (windows.needsTime()) {
            input.requireTime("window", windows);
        }
        return new WindowedStream<>(this, windows);
    }
}
