package org.fastflowj.stream.internal;

import java.util.Objects;
import java.util.function.ToLongFunction;
import org.fastflowj.stream.Aggregate;

/**
 * The sum of a {@code long} function of the records (counting is its sum of 1s): an aggregate like any
 * other, whose accumulator is a {@code long[1]}, and one that frame windows and their first stage
 * recognise, to keep each key's sum as a plain {@code long} ({@link KeyTable#ofSums}) with no accumulator
 * object per key and frame.
 */
public final class LongSum<T> implements Aggregate<T, long[], Long> {
    private final ToLongFunction<? super T> f;

    public LongSum(ToLongFunction<? super T> f) {
        this.f = Objects.requireNonNull(f, "f");
    }

    /** What one record adds to its key's sum. */
    long valueOf(T record) {
        return f.applyAsLong(record);
    }

    @Override
    public long[] create() {
        return new long[1];
    }

    @Override
    public long[] add(long[] accumulator, T value) {
        accumulator[0] += f.applyAsLong(value);
        return accumulator;
    }

    @Override
    public long[] combine(long[] accumulator, long[] other) {
        accumulator[0] += other[0];
        return accumulator;
    }

    @Override
    public Long result(long[] accumulator) {
        return accumulator[0];
    }

    @Override
    public boolean canDeduct() {
        return true;
    }

    @Override
    public long[] deduct(long[] accumulator, long[] other) {
        accumulator[0] -= other[0];
        return accumulator;
    }
}
