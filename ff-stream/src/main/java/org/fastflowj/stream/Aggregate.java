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
 * @param <T> the records' type
 * @param <A> the accumulator's type
 * @param <R> the result's type
 */
public interface Aggregate<T, A, R> {
    A create();

    A add(A accumulator, T value);

    A combine(A accumulator, A other);

    R result(A accumulator);
}
