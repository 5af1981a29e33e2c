package org.fastflowj.dist.apps;

import static org.fastflowj.patterns.MacroDataFlow.in;
import static org.fastflowj.patterns.MacroDataFlow.inout;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.dist.DFF;
import org.fastflowj.patterns.MacroDataFlow;

/**
 * A blocked product on a MacroDataFlow whose workers span groups S (generator, scheduler, one worker), W1
 * and W2 (one worker each), slow enough per task that a worker group can be killed mid-run: blocks stay
 * in the worker groups that use them (as references on the links) and tasks updating a block go where it
 * was written, so a lost group leaves tasks and kept blocks behind. Group S prints {@code progress} once a
 * quarter of the tasks were added (the outstanding bound keeps the generator close behind the workers),
 * and {@code result: product=equal} when C equals the sequential product bit for bit.
 *
 * <p>Arguments after DFF's: {@code blocks} per side and {@code workMicros} per task.
 */
public final class DataFlowRecoveryApp {
    static final List<String> GROUPS = List.of("S", "W1", "W2");
    static final int BS = 16;

    private DataFlowRecoveryApp() {}

    /** c += a * b on blocks of {@code BS}, then {@code workMicros} standing for a bigger block. */
    public record SlowGemm(long workMicros) implements MacroDataFlow.Kernel {
        @Override
        public void run(Object[] p) {
            gemm((double[]) p[0], (double[]) p[1], (double[]) p[2]);
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(workMicros));
        }
    }

    static void gemm(double[] a, double[] b, double[] c) {
        for (int i = 0; i < BS; i++) {
            for (int k = 0; k < BS; k++) {
                for (int j = 0; j < BS; j++) {
                    c[i * BS + j] += a[i * BS + k] * b[k * BS + j];
                }
            }
        }
    }

    static double[][][] blocks(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[][][] m = new double[n][n][BS * BS];
        for (double[][] row : m) {
            for (double[] block : row) {
                for (int e = 0; e < block.length; e++) {
                    block[e] = seed == 0 ? 0 : random.nextDouble() - 0.5;
                }
            }
        }
        return m;
    }

    public static void main(String[] args) {
        args = DFF.init(args);
        DFF.register(SlowGemm.class);
        int n = Integer.parseInt(args[0]);
        SlowGemm kernel = new SlowGemm(Long.parseLong(args[1]));
        double[][][] a = blocks(n, 1), b = blocks(n, 2), c = blocks(n, 0);
        int tasks = n * n * n;
        try (MacroDataFlow mdf = new MacroDataFlow(1, 16)
                .createGroup("S")
                .addWorkerGroup("W1", 1)
                .addWorkerGroup("W2", 1)) {
            mdf.run(g -> {
                int added = 0;
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        for (int k = 0; k < n; k++) {
                            g.add(kernel, in(a[i][k]), in(b[k][j]), inout(c[i][j]));
                            if (++added == tasks / 4) {
                                System.out.println("progress");
                                System.out.flush();
                            }
                        }
                    }
                }
            });
        }
        if (DFF.group().map("S"::equals).orElse(true)) {
            double[][][] expected = blocks(n, 0);
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    for (int k = 0; k < n; k++) {
                        gemm(a[i][k], b[k][j], expected[i][j]);
                    }
                }
            }
            System.out.println("result: product=" + (Arrays.deepEquals(c, expected) ? "equal" : "DIFFERENT"));
        }
    }
}
