package org.fastflowj.stream;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BiFunction;
import org.fastflowj.stream.internal.IntervalJoinOperator;
import org.fastflowj.stream.internal.Joins;

/**
 * An interval join of two keyed streams, as Flink's: {@code left.intervalJoin(right).between(lower,
 * upper).apply(f)} emits {@code f(l, r)} for every left record {@code l} at time {@code t} and right
 * record {@code r} of the same key at {@code t + lower <= t' <= t + upper}, as soon as the second of the
 * two arrives, at the later of their times. A record older than the join's watermark (the smaller of its
 * inputs') is late: counted in {@link JobStats#lateRecords()} and dropped. Both inputs need event time.
 *
 * @param <K> the key's type
 * @param <L> the left records' type
 * @param <R> the right records' type
 */
public final class IntervalJoin<K, L, R> {
    private final KeyedStream<K, L> left;
    private final KeyedStream<K, R> right;

    IntervalJoin(KeyedStream<K, L> left, KeyedStream<K, R> right) {
        this.left = left;
        this.right = right;
    }

    /** The right records' times, relative to the left record's, both bounds included ({@code lower <= upper}). */
    public Between between(Duration lower, Duration upper) {
        long lowerMillis = Objects.requireNonNull(lower, "lower").toMillis();
        long upperMillis = Objects.requireNonNull(upper, "upper").toMillis();
        if (lowerMillis > upperMillis) {
            throw new IllegalArgumentException(
                    "intervalJoin.between(" + lower + ", " + upper + "): the lower bound is above the upper one");
        }
        left.input.requireTime("intervalJoin", null);
        right.input.requireTime("intervalJoin", null);
        return new Between(lowerMillis, upperMillis);
    }

    /** An interval join with its bounds, waiting for the function that makes a result of each pair. */
    public final class Between {
        private final long lower;
        private final long upper;

        Between(long lower, long upper) {
            this.lower = lower;
            this.upper = upper;
        }

        public <T> DataStream<T> apply(BiFunction<? super L, ? super R, ? extends T> function) {
            Objects.requireNonNull(function, "function");
            var key = Joins.key(left.key, right.key);
            String name = "intervalJoin[" + lower + "ms," + upper + "ms]";
            return left.input.joinWith(
                    right.input, name, key, i -> new IntervalJoinOperator(key, function, lower, upper));
        }
    }
}
