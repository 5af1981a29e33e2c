package org.fastflowj.dist.apps;

import static org.fastflowj.patterns.MacroDataFlow.in;
import static org.fastflowj.patterns.MacroDataFlow.inout;
import static org.fastflowj.patterns.MacroDataFlow.out;

import java.util.Arrays;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.dist.DFF;
import org.fastflowj.patterns.IndexBody;
import org.fastflowj.patterns.LongReduceBody;
import org.fastflowj.patterns.MacroDataFlow;
import org.fastflowj.patterns.ParallelFor;

/**
 * ParallelFor and MacroDataFlow with workers in groups S (the caller, the scheduler, one worker), W1 and W2
 * (one worker each): a parallelFor that records where each index ran, a reduction, and a blocked product
 * whose tasks record where they ran. Group S prints {@code result: ...} lines to compare with a sequential
 * computation; the other groups print nothing.
 */
public final class PatternsApp {
    public static final java.util.List<String> GROUPS = java.util.List.of("S", "W1", "W2");
    static final int N = 2000;
    static final int BLOCKS = 4;
    static final int BS = 8;

    private PatternsApp() {}

    /** a[i] = 3 i + 1, and where[i] = the group that ran index i. */
    public record Fill(long[] a, String[] where) implements IndexBody {
        @Override
        public void apply(long i) {
            LockSupport.parkNanos(20_000); // a little work, so that every group's worker gets chunks
            a[(int) i] = 3 * i + 1;
            where[(int) i] = DFF.group().orElse("-");
        }
    }

    public record SumOfSquares() implements LongReduceBody {
        @Override
        public long apply(long partial, long i) {
            return partial + i * i;
        }
    }

    /** c += a * b on blocks of BS; params (a, b, c, where), where[0] = the group that ran it. */
    public record Gemm() implements MacroDataFlow.Kernel {
        @Override
        public void run(Object[] p) {
            double[] a = (double[]) p[0], b = (double[]) p[1], c = (double[]) p[2];
            for (int i = 0; i < BS; i++) {
                for (int k = 0; k < BS; k++) {
                    for (int j = 0; j < BS; j++) {
                        c[i * BS + j] += a[i * BS + k] * b[k * BS + j];
                    }
                }
            }
            LockSupport.parkNanos(200_000);
            ((String[]) p[3])[0] = DFF.group().orElse("-");
        }
    }

    static double[][][] blocks(long seed) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        double[][][] m = new double[BLOCKS][BLOCKS][BS * BS];
        for (double[][] row : m) {
            for (double[] block : row) {
                for (int e = 0; e < block.length; e++) {
                    block[e] = seed == 0 ? 0 : random.nextDouble() - 0.5;
                }
            }
        }
        return m;
    }

    /** The sequential blocked product, as the tasks compute it (k in order per block of C). */
    public static double[][][] sequentialProduct() {
        double[][][] a = blocks(1), b = blocks(2), c = blocks(0);
        for (int i = 0; i < BLOCKS; i++) {
            for (int j = 0; j < BLOCKS; j++) {
                for (int k = 0; k < BLOCKS; k++) {
                    new Gemm().run(new Object[] {a[i][k], b[k][j], c[i][j], new String[1]});
                }
            }
        }
        return c;
    }

    public static void main(String[] args) {
        args = DFF.init(args);
        DFF.register(Fill.class, SumOfSquares.class, Gemm.class);
        boolean printer = DFF.group().map("S"::equals).orElse(true);

        long[] a = new long[N];
        String[] where = new String[N];
        long sum;
        // tag::groups[]
        try (ParallelFor pf =
                new ParallelFor(1).createGroup("S").addWorkerGroup("W1", 1).addWorkerGroup("W2", 1)) {
            pf.parallelFor(0, N, 1, 50, new Fill(a, where));
            sum = pf.reduceLong(0, N, 1, 0, 0L, new SumOfSquares(), Long::sum);
        }
        // end::groups[]

        double[][][] ma = blocks(1), mb = blocks(2), mc = blocks(0);
        String[][] ran = new String[BLOCKS * BLOCKS * BLOCKS][1];
        try (MacroDataFlow mdf =
                new MacroDataFlow(1).createGroup("S").addWorkerGroup("W1", 1).addWorkerGroup("W2", 1)) {
            mdf.run(g -> {
                int t = 0;
                for (int i = 0; i < BLOCKS; i++) {
                    for (int j = 0; j < BLOCKS; j++) {
                        for (int k = 0; k < BLOCKS; k++) {
                            g.add(new Gemm(), in(ma[i][k]), in(mb[k][j]), inout(mc[i][j]), out(ran[t++]));
                        }
                    }
                }
            });
        }
        if (printer) {
            boolean filled = true;
            for (int i = 0; i < N; i++) {
                filled &= a[i] == 3L * i + 1;
            }
            System.out.println("result: filled=" + filled + " forGroups=" + new TreeSet<>(Arrays.asList(where)));
            System.out.println("result: sum=" + sum);
            boolean equal = Arrays.deepEquals(mc, sequentialProduct());
            TreeSet<String> taskGroups = new TreeSet<>();
            for (String[] r : ran) {
                taskGroups.add(r[0]);
            }
            System.out.println("result: product=" + (equal ? "equal" : "DIFFERENT") + " taskGroups=" + taskGroups);
        }
    }
}
