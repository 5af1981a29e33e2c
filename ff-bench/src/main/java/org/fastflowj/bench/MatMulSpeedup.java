package org.fastflowj.bench;

import static org.fastflowj.patterns.MacroDataFlow.in;
import static org.fastflowj.patterns.MacroDataFlow.inout;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RecursiveAction;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.patterns.MacroDataFlow;
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
 * The DF-Threads benchmark: C += A x B on N x N matrices of {@code block x block} blocks, each block its
 * own {@code double[]}, with the same block kernel everywhere:
 *
 * <pre>
 *   sequential:     for i, j, k: gemm(A(i,k), B(k,j), C(i,j))                   (the benchmark thread)
 *   forkJoin:       one task per C(i,j) doing its k loop; invokeAll on a pool of 2
 *   macroDataFlow:  one MacroDataFlow task per (i, j, k): in A(i,k), in B(k,j), inout C(i,j); 2 workers
 *   macroDataFlowEmptyTasks, forkJoinEmptyTasks: the same tasks with an empty body (each layer's own cost)
 * </pre>
 *
 * All three sum each C(i,j) in k order, so their results are equal bit for bit (BenchmarkBodiesTest).
 * Speed-up = sequential time / macroDataFlow time; the goal is 1.7 at block 32 on 2 cores.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class MatMulSpeedup extends AbstractBenchmark {
    public static final int WORKERS = 2;

    @State(Scope.Benchmark)
    public static class Matrices {
        @Param({"864"})
        public int n;

        @Param({"8", "32"})
        public int block;

        /** MacroDataFlow's default (BACKOFF); pass {@code -p strategy=BACKOFF,BLOCKING} to compare. */
        @Param({"BACKOFF"})
        public WaitStrategy strategy;

        double[][][] a;
        double[][][] b;
        double[][][] c;
        MacroDataFlow mdf;
        ForkJoinPool pool;

        @Setup(Level.Trial)
        public void setUp() {
            prepare(n, block, RunOptions.defaults().waitStrategy(strategy));
        }

        void prepare(int order, int blockSize, RunOptions options) {
            n = order;
            block = blockSize;
            a = random(order, blockSize, 1);
            b = random(order, blockSize, 2);
            c = random(order, blockSize, 3);
            mdf = new MacroDataFlow(WORKERS, MacroDataFlow.DEFAULT_OUTSTANDING_TASKS, options);
            pool = new ForkJoinPool(WORKERS);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            mdf.close();
            pool.shutdown();
        }
    }

    @Benchmark
    public double[][][] sequential(Matrices m) {
        int nb = m.a.length, bs = m.block;
        for (int i = 0; i < nb; i++) {
            for (int j = 0; j < nb; j++) {
                for (int k = 0; k < nb; k++) {
                    gemm(m.a[i][k], m.b[k][j], m.c[i][j], bs);
                }
            }
        }
        return m.c;
    }

    @Benchmark
    public double[][][] forkJoin(Matrices m) {
        int nb = m.a.length, bs = m.block;
        List<ForkJoinTask<?>> tasks = new ArrayList<>(nb * nb);
        for (int i = 0; i < nb; i++) {
            for (int j = 0; j < nb; j++) {
                int row = i, col = j;
                tasks.add(new RecursiveAction() {
                    private static final long serialVersionUID = 1L;

                    @Override
                    protected void compute() {
                        for (int k = 0; k < nb; k++) {
                            gemm(m.a[row][k], m.b[k][col], m.c[row][col], bs);
                        }
                    }
                });
            }
        }
        m.pool.invoke(new RecursiveAction() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void compute() {
                invokeAll(tasks);
            }
        });
        return m.c;
    }

    @Benchmark
    public double[][][] macroDataFlow(Matrices m) {
        int nb = m.a.length, bs = m.block;
        double[][][] a = m.a, b = m.b, c = m.c;
        m.mdf.run(g -> {
            for (int i = 0; i < nb; i++) {
                for (int j = 0; j < nb; j++) {
                    double[] cij = c[i][j];
                    for (int k = 0; k < nb; k++) {
                        double[] aik = a[i][k], bkj = b[k][j];
                        g.add(() -> gemm(aik, bkj, cij, bs), in(aik), in(bkj), inout(cij));
                    }
                }
            }
        });
        return c;
    }

    /** ForkJoin's own cost, beside {@link #macroDataFlowEmptyTasks}: the same tasks as {@link #forkJoin}, empty. */
    @Benchmark
    public int forkJoinEmptyTasks(Matrices m) {
        int nb = m.a.length;
        List<ForkJoinTask<?>> tasks = new ArrayList<>(nb * nb);
        int[] ran = new int[1];
        for (int i = 0; i < nb * nb; i++) {
            tasks.add(new RecursiveAction() {
                private static final long serialVersionUID = 1L;

                @Override
                protected void compute() {}
            });
        }
        m.pool.invoke(new RecursiveAction() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void compute() {
                invokeAll(tasks);
                ran[0] = tasks.size();
            }
        });
        return ran[0];
    }

    /**
     * The bound of {@link #macroDataFlow}: the same tasks with the same parameters and dependencies, each
     * doing nothing. What this takes is the data-flow layer's own cost (adding, linking, handing over and
     * completing every task); a product cannot run faster than this however fast the kernel.
     */
    @Benchmark
    public double[][][] macroDataFlowEmptyTasks(Matrices m) {
        int nb = m.a.length;
        double[][][] a = m.a, b = m.b, c = m.c;
        Runnable nothing = () -> {};
        m.mdf.run(g -> {
            for (int i = 0; i < nb; i++) {
                for (int j = 0; j < nb; j++) {
                    double[] cij = c[i][j];
                    for (int k = 0; k < nb; k++) {
                        g.add(nothing, in(a[i][k]), in(b[k][j]), inout(cij));
                    }
                }
            }
        });
        return c;
    }

    /** c += a * b on bs x bs row-major blocks. */
    static void gemm(double[] a, double[] b, double[] c, int bs) {
        for (int i = 0; i < bs; i++) {
            for (int k = 0; k < bs; k++) {
                double aik = a[i * bs + k];
                int cRow = i * bs, bRow = k * bs;
                for (int j = 0; j < bs; j++) {
                    c[cRow + j] += aik * b[bRow + j];
                }
            }
        }
    }

    static double[][][] random(int n, int bs, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int nb = n / bs;
        double[][][] m = new double[nb][nb][bs * bs];
        for (double[][] row : m) {
            for (double[] blk : row) {
                for (int e = 0; e < blk.length; e++) {
                    blk[e] = random.nextDouble() - 0.5;
                }
            }
        }
        return m;
    }
}
