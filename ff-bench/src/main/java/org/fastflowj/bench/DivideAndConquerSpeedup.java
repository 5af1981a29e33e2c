package org.fastflowj.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.patterns.DivideAndConquer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@link DivideAndConquer} (FastFlow's ff_DC: a farm with feedback, the emitter keeps the task tree)
 * against a {@link ForkJoinPool} of the same parallelism and the sequential recursion, on the same
 * problems with the same base cases:
 *
 * <pre>
 *   fibonacci:  fib(FIB_N), divided into fib(n-1) + fib(n-2) down to n &lt;= FIB_CUTOFF, solved recursively
 *   mergeSort:  SORT_SIZE ints, halves down to SORT_CUTOFF elements, sorted with Arrays.sort, merged
 * </pre>
 *
 * Speed-up = sequential time / D&amp;C time; gain over ForkJoin = ForkJoin time / D&amp;C time. The D&amp;C
 * starts its threads (two workers and the scheduler) inside each invocation; the ForkJoin pool lives for
 * the trial, as a real program would keep it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class DivideAndConquerSpeedup extends AbstractBenchmark {
    public static final int WORKERS = 2;
    public static final int FIB_N = 34;
    public static final int FIB_CUTOFF = 22;
    public static final int SORT_SIZE = 2_000_000;
    public static final int SORT_CUTOFF = 16_384;

    @State(Scope.Benchmark)
    public static class Work {
        @Param({"BACKOFF"})
        public WaitStrategy strategy;

        int[] unsorted;
        ForkJoinPool pool;
        DivideAndConquer<Long, Long> fibonacci;
        DivideAndConquer<int[], int[]> mergeSort;

        @Setup(Level.Trial)
        public void setUp() {
            prepare(SORT_SIZE, RunOptions.defaults().waitStrategy(strategy));
        }

        void prepare(int sortSize, RunOptions options) {
            unsorted = new Random(1).ints(sortSize).toArray();
            pool = new ForkJoinPool(WORKERS);
            fibonacci = new DivideAndConquer<>(
                    n -> List.of(n - 1, n - 2),
                    r -> r.get(0) + r.get(1),
                    n -> fib(n),
                    n -> n <= FIB_CUTOFF,
                    WORKERS,
                    options);
            mergeSort = new DivideAndConquer<>(
                    DivideAndConquerSpeedup::halves,
                    r -> merge(r.get(0), r.get(1)),
                    DivideAndConquerSpeedup::sorted,
                    a -> a.length <= SORT_CUTOFF,
                    WORKERS,
                    options);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            pool.shutdown();
        }
    }

    @Benchmark
    public long fibonacciDivideAndConquer(Work work) {
        return work.fibonacci.run((long) FIB_N);
    }

    @Benchmark
    public long fibonacciForkJoin(Work work) {
        return work.pool.invoke(new FibTask(FIB_N));
    }

    @Benchmark
    public long fibonacciSequential() {
        return fibWithCutoff(FIB_N);
    }

    @Benchmark
    public int[] mergeSortDivideAndConquer(Work work) {
        return work.mergeSort.run(work.unsorted);
    }

    @Benchmark
    public int[] mergeSortForkJoin(Work work) {
        return work.pool.invoke(new SortTask(work.unsorted));
    }

    @Benchmark
    public int[] mergeSortSequential(Work work) {
        return sortWithCutoff(work.unsorted);
    }

    static long fib(long n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    /** The same tree as the parallel versions: divided above the cutoff, recursive below. */
    static long fibWithCutoff(long n) {
        return n <= FIB_CUTOFF ? fib(n) : fibWithCutoff(n - 1) + fibWithCutoff(n - 2);
    }

    static List<int[]> halves(int[] a) {
        return List.of(Arrays.copyOfRange(a, 0, a.length / 2), Arrays.copyOfRange(a, a.length / 2, a.length));
    }

    static int[] sorted(int[] a) {
        int[] copy = a.clone();
        Arrays.sort(copy);
        return copy;
    }

    static int[] sortWithCutoff(int[] a) {
        if (a.length <= SORT_CUTOFF) {
            return sorted(a);
        }
        List<int[]> halves = halves(a);
        return merge(sortWithCutoff(halves.get(0)), sortWithCutoff(halves.get(1)));
    }

    static int[] merge(int[] left, int[] right) {
        int[] out = new int[left.length + right.length];
        int i = 0, j = 0, k = 0;
        while (i < left.length && j < right.length) {
            out[k++] = left[i] <= right[j] ? left[i++] : right[j++];
        }
        System.arraycopy(left, i, out, k, left.length - i);
        System.arraycopy(right, j, out, k + left.length - i, right.length - j);
        return out;
    }

    static final class FibTask extends RecursiveTask<Long> {
        private static final long serialVersionUID = 1L;
        private final long n;

        FibTask(long n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            if (n <= FIB_CUTOFF) {
                return fib(n);
            }
            FibTask left = new FibTask(n - 1);
            left.fork();
            return new FibTask(n - 2).compute() + left.join();
        }
    }

    static final class SortTask extends RecursiveTask<int[]> {
        private static final long serialVersionUID = 1L;
        private final int[] a;

        SortTask(int[] a) {
            this.a = a;
        }

        @Override
        protected int[] compute() {
            if (a.length <= SORT_CUTOFF) {
                return sorted(a);
            }
            List<int[]> halves = halves(a);
            SortTask left = new SortTask(halves.get(0));
            left.fork();
            int[] right = new SortTask(halves.get(1)).compute();
            return merge(left.join(), right);
        }
    }
}
