package org.fastflowj.patterns;

import java.util.Objects;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.fastflowj.core.Node;
import org.fastflowj.core.RunOptions;

/**
 * A stream stage that maps every element of each input array with its own {@link ParallelFor}
 * (FastFlow's {@code ff_Map}): data parallelism inside one stage of a stream-parallel program, for
 * instance as a pipeline stage or as each worker of a farm.
 *
 * <pre>
 *   ──T[]──▶ [ ParallelMap: pf.parallelFor over the array ] ──R[]──▶
 * </pre>
 *
 * <p>The loop's workers start with the stage ({@code svcInit}) and end with it ({@code svcEnd}, or when
 * the function fails); the function runs on them, so it must be safe to call from several threads. A
 * failing function fails the run with a {@link ParallelForException} naming the element's index.
 *
 * @param <T> input element type
 * @param <R> output element type
 */
public final class ParallelMap<T, R> extends Node<T[], R[]> {
    private final int workers;
    private final long grain;
    private final RunOptions options;
    private final Function<? super T, ? extends R> function;
    private final IntFunction<R[]> newArray;
    /** Bound once: the per-item call allocates nothing but the result array. */
    private final IndexBody mapOne = this::mapOne;

    private ParallelFor pf;
    // the array being mapped: written before each call, published to the workers by the call's hand-off
    private T[] input;
    private R[] output;

    private ParallelMap(
            int workers,
            long grain,
            RunOptions options,
            Function<? super T, ? extends R> function,
            IntFunction<R[]> newArray) {
        if (workers < 1) {
            throw new IllegalArgumentException("ParallelMap with " + workers + " workers: at least 1 is needed");
        }
        this.workers = workers;
        this.grain = grain;
        this.options = Objects.requireNonNull(options, "options");
        this.function = Objects.requireNonNull(function, "function");
        this.newArray = Objects.requireNonNull(newArray, "newArray");
    }

    /** Static blocks, one per worker: for elements of similar cost. */
    public static <T, R> ParallelMap<T, R> of(
            int workers, Function<? super T, ? extends R> function, IntFunction<R[]> newArray) {
        return new ParallelMap<>(workers, 0, LoopEngine.DEFAULT_OPTIONS, function, newArray);
    }

    /** {@code grain > 0}: chunks of {@code grain} elements taken by free workers, for uneven elements. */
    public static <T, R> ParallelMap<T, R> of(
            int workers, long grain, Function<? super T, ? extends R> function, IntFunction<R[]> newArray) {
        return new ParallelMap<>(workers, grain, LoopEngine.DEFAULT_OPTIONS, function, newArray);
    }

    @Override
    protected void svcInit() {
        pf = new ParallelFor(workers, options);
    }

    @Override
    protected R[] svc(T[] items) {
        R[] result = newArray.apply(items.length);
        input = items;
        output = result;
        try {
            pf.parallelFor(0, items.length, 1, grain, mapOne);
        } catch (RuntimeException e) {
            pf.close(); // the run ends with this failure: svcEnd will not be called
            throw e;
        } finally {
            input = null;
            output = null;
        }
        return result;
    }

    private void mapOne(long index) {
        output[(int) index] = function.apply(input[(int) index]);
    }

    @Override
    protected void svcEnd() {
        pf.close();
    }

    @Override
    public String toString() {
        return "ParallelMap(" + workers + " workers)";
    }
}
