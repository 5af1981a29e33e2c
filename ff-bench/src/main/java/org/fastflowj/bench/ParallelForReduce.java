package org.fastflowj.bench;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.fastflowj.patterns.ParallelFor;
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
 * A sum reduction over N iterations of busy-work, by {@link ParallelFor#reduceLong} against the JDK's
 * parallel loops and the sequential loop, all in the same run.
 *
 * <pre>
 *   sequential:       for (i = 0; i &lt; N; i++) sum += spin(i)                 (the benchmark thread)
 *   reduceStatic:     pf.reduceLong(0, N, 1, 0, ...)       one block per worker  (ParallelFor, 1 per cpu)
 *   reduceDynamic:    pf.reduceLong(0, N, 1, N / 64, ...)  64 chunks, taken on demand
 *   longStream:       LongStream.range(0, N).parallel().map(spin).sum()          (common pool + caller)
 *   intStream:        IntStream.range(0, N).parallel().mapToLong(spin).sum()
 *   forkJoin:         RecursiveTask halving down to N / 64, on a ForkJoinPool of 1 per cpu
 * </pre>
 *
 * <p>N = {@value #SEQUENTIAL_WORK_MICROS} µs of sequential work / the iteration's cost, so one
 * invocation is about 10 ms sequentially at every cost; the cost ({@code iterationNanos}) is
 * {@link BusyWork#spin} calibrated to 0.1, 1 or 10 µs. Mode: average time per invocation; ratios:
 * sequential / variant (speed-up) and longStream / reduceStatic (gain over parallel streams). Every
 * variant returns the same sum (checked by a unit test).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ParallelForReduce extends AbstractBenchmark {
    public static final int SEQUENTIAL_WORK_MICROS = 10_000;
    static final int CHUNKS = 64;

    @State(Scope.Benchmark)
    public static class Loop {
        @Param({"100", "1000", "10000"})
        public int iterationNanos;

        int iterations;
        int spins;
        ParallelFor pf;
        ForkJoinPool forkJoin;

        @Setup(Level.Trial)
        public void setUp() {
            prepare(iterationNanos, SEQUENTIAL_WORK_MICROS, Runtime.getRuntime().availableProcessors());
        }

        void prepare(int nanos, int sequentialMicros, int workers) {
            iterationNanos = nanos;
            spins = (int) Math.max(1, Math.round(BusyWork.iterationsPerMicro() * nanos / 1000.0));
            iterations = (int) (sequentialMicros * 1000L / nanos);
            pf = new ParallelFor(workers);
            forkJoin = new ForkJoinPool(workers);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            pf.close();
            forkJoin.shutdownNow();
        }
    }

    @Benchmark
    public long sequential(Loop loop) {
        return runSequential(loop);
    }

    @Benchmark
    public long reduceStatic(Loop loop) {
        return runParallelFor(loop, 0);
    }

    @Benchmark
    public long reduceDynamic(Loop loop) {
        return runParallelFor(loop, Math.max(1, loop.iterations / CHUNKS));
    }

    @Benchmark
    public long longStream(Loop loop) {
        int spins = loop.spins;
        return LongStream.range(0, loop.iterations)
                .parallel()
                .map(i -> BusyWork.spin(spins, i))
                .sum();
    }

    @Benchmark
    public long intStream(Loop loop) {
        int spins = loop.spins;
        return IntStream.range(0, loop.iterations)
                .parallel()
                .mapToLong(i -> BusyWork.spin(spins, i))
                .sum();
    }

    @Benchmark
    public long forkJoin(Loop loop) {
        return loop.forkJoin.invoke(new SumTask(loop.spins, 0, loop.iterations, Math.max(1, loop.iterations / CHUNKS)));
    }

    static long runSequential(Loop loop) {
        long sum = 0;
        for (int i = 0; i < loop.iterations; i++) {
            sum += BusyWork.spin(loop.spins, i);
        }
        return sum;
    }

    static long runParallelFor(Loop loop, long grain) {
        int spins = loop.spins;
        return loop.pf.reduceLong(
                0, loop.iterations, 1, grain, 0L, (sum, i) -> sum + BusyWork.spin(spins, i), Long::sum);
    }

    /** The classic divide-and-conquer sum: halves until {@code threshold}, forks one half, computes the other. */
    static final class SumTask extends RecursiveTask<Long> {
        private static final long serialVersionUID = 1L;
        private final int spins;
        private final int from;
        private final int to;
        private final int threshold;

        SumTask(int spins, int from, int to, int threshold) {
            this.spins = spins;
            this.from = from;
            this.to = to;
            this.threshold = threshold;
        }

        @Override
        protected Long compute() {
            if (to - from <= threshold) {
                long sum = 0;
                for (int i = from; i < to; i++) {
                    sum += BusyWork.spin(spins, i);
                }
                return sum;
            }
            int middle = (from + to) >>> 1;
            SumTask left = new SumTask(spins, from, middle, threshold);
            left.fork();
            long right = new SumTask(spins, middle, to, threshold).compute();
            return right + left.join();
        }
    }
}
