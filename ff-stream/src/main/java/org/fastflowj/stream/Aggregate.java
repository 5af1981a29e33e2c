package org.fastflowj.stream;

/**
 * An incremental aggregation: an accumulator is created, records are added to it one by one, partial
 * accumulators are combined (a sliding window combines its panes, a session window merges sessions),
 * and the result is read from it.
 *
 * <p>{@code add} and {@code combine} may modify and return their first argument; {@code combine} never
 * modifies its second, and {@code result} modifies nothing (a window within its allowed lateness fires
 * again from the same accumulator).
 *
 * <p>An aggregate that can take back what it combined ({@link #canDeduct}) lets a sliding window keep
 * one running accumulator per key: at each slide the panes that left the window are deducted and the
 * new ones combined, so a firing costs the same whatever size / slide is. Without it a firing combines
 * every pane of the window.
 *
 * @param <T> the records' type
 * @param <A> the accumulator's type
 * @param <R> the result's type
 */
public interface Aggregate<T, A, R> {
    A create();

    A add(A accumulator, T value);

    A combine(A accumulator, A other);

    R result(A accumulator);

    /** Whether {@link #deduct} is supported. */
    default boolean canDeduct() {
        return false;
    }

    /**
     * Takes {@code other}, which was combined into {@code accumulator} earlier, back out of it; may
     * modify and return {@code accumulator}, never modifies {@code other}.
     */
    default A deduct(A accumulator, A other) {
        throw new UnsupportedOperationException("this aggregate cannot deduct");
    }
}
