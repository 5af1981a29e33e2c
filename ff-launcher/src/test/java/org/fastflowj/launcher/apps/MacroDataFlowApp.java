package org.fastflowj.launcher.apps;

import static org.fastflowj.patterns.MacroDataFlow.in;
import static org.fastflowj.patterns.MacroDataFlow.inout;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.dist.DFF;
import org.fastflowj.patterns.MacroDataFlow;

/**
 * A blocked matrix product on a macro data-flow for the launcher's tests: the generator, the scheduler and
 * one worker in group A, one worker each in B and C. Arguments after DFF's: {@code blocks} per side,
 * {@code workMicros} per task (a pause standing for more computing). Group A prints {@code progress} once
 * a quarter of the tasks are added (the outstanding bound of 16 holds the generator back, so most of them
 * are done) and {@code product=<digest> equal=<true|false>} at the end: the product's bits hashed and
 * compared with the sequential product.
 */
public final class MacroDataFlowApp {
    static final int BS = 8;

    private MacroDataFlowApp() {}

    public static void main(String[] args) {
        args = DFF.init(args);
        DFF.register(Gemm.class);
        int blocks = Integer.parseInt(args[0]);
        long workMicros = Long.parseLong(args[1]);
        double[][][] a = random(blocks, 1), b = random(blocks, 2), c = new double[blocks][blocks][BS * BS];
        long total = (long) blocks * blocks * blocks;
        try (MacroDataFlow mdf =
                new MacroDataFlow(1, 16).createGroup("A").addWorkerGroup("B", 1).addWorkerGroup("C", 1)) {
            mdf.run(g -> {
                long added = 0;
                for (int i = 0; i < blocks; i++) {
                    for (int j = 0; j < blocks; j++) {
                        for (int k = 0; k < blocks; k++) {
                            g.add(new Gemm(workMicros), in(a[i][k]), in(b[k][j]), inout(c[i][j]));
                            if (++added == total / 4) {
                                System.out.println("progress");
                                System.out.flush();
                            }
                        }
                    }
                }
            });
        }
        if (DFF.group().map("A"::equals).orElse(true)) {
            System.out.println(
                    "product=" + Long.toHexString(digest(c)) + " equal=" + Arrays.deepEquals(c, product(blocks)));
        }
    }

    /** The line group A prints when the product is the sequential one. */
    public static String expected(int blocks) {
        return "product=" + Long.toHexString(digest(product(blocks))) + " equal=true";
    }

    /** FNV-1a over the bits of every value. */
    private static long digest(double[][][] m) {
        long h = 0xcbf29ce484222325L;
        for (double[][] row : m) {
            for (double[] block : row) {
                for (double v : block) {
                    h = (h ^ Double.doubleToRawLongBits(v)) * 0x100000001b3L;
                }
            }
        }
        return h;
    }

    private static double[][][] product(int blocks) {
        double[][][] a = random(blocks, 1), b = random(blocks, 2), c = new double[blocks][blocks][BS * BS];
        for (int i = 0; i < blocks; i++) {
            for (int j = 0; j < blocks; j++) {
                for (int k = 0; k < blocks; k++) {
                    new Gemm(0).run(new Object[] {a[i][k], b[k][j], c[i][j]});
                }
            }
        }
        return c;
    }

    /** c += a * b on blocks of BS: parameters a, b, c; it writes nothing else (a lost group's tasks run again). */
    public record Gemm(long workMicros) implements MacroDataFlow.Kernel {
        @Override
        public void run(Object[] p) {
            double[] x = (double[]) p[0], y = (double[]) p[1], z = (double[]) p[2];
            for (int i = 0; i < BS; i++) {
                for (int k = 0; k < BS; k++) {
                    for (int j = 0; j < BS; j++) {
                        z[i * BS + j] += x[i * BS + k] * y[k * BS + j];
                    }
                }
            }
            if (workMicros > 0) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(workMicros));
            }
        }
    }

    private static double[][][] random(int blocks, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[][][] m = new double[blocks][blocks][BS * BS];
        for (double[][] row : m) {
            for (double[] block : row) {
                for (int e = 0; e < block.length; e++) {
                    block[e] = random.nextDouble() - 0.5;
                }
            }
        }
        return m;
    }
}
