package org.fastflowj.dist.apps;

import static org.fastflowj.patterns.MacroDataFlow.in;
import static org.fastflowj.patterns.MacroDataFlow.inout;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.dist.DFF;
import org.fastflowj.patterns.IndexBody;
import org.fastflowj.patterns.MacroDataFlow;
import org.fastflowj.patterns.ParallelFor;

/**
 * A macro data-flow for the tests of losing a worker group: the generator, the scheduler and one worker in
 * group S, one worker in each of W1, W2 and W3. Arguments after DFF's: {@code shape} ({@code matmul}: C +=
 * A x B by blocks, the tasks of one block of C a chain; {@code wavefront}: sweeps over a grid of blocks,
 * each block after its upper and left neighbours, a diamond of dependencies; {@code loop}: one {@code
 * ParallelFor.parallelFor} over {@code blocks * 500} indices, run as a macro data-flow of its chunks of 20,
 * an eighth of {@code workMicros} per index; shapes
 * joined by {@code +}: one run of each, in turn), {@code blocks} per side,
 * {@code workMicros} per task (a pause standing for more computing), {@code outstanding} tasks, and
 * optionally {@code holdIn}: a group whose worker, at its tenth task, prints {@code holding a task} and
 * stops inside the kernel, so that a test kills it with a task in hand for sure.
 *
 * <p>Group S prints {@code progress <k>/20} each time the generator added another twentieth of the tasks
 * (the outstanding bound holds it back, so all but {@code outstanding} of them are done by then), and at the
 * end {@code RESULT: <shape> digest=<hex> equal=<true|false>}: the digest of the result's bits and whether
 * it equals the sequential computation bit for bit. The kernels write nothing but their written parameter:
 * a lost group's tasks run again elsewhere.
 */
public final class RecoverableMdfApp {
    static final List<String> GROUPS = List.of("S", "W1", "W2", "W3");
    static final int BS = 16;

    private RecoverableMdfApp() {}

    public static void main(String[] args) {
        args = DFF.init(args);
        DFF.register(Gemm.class, Wave.class, Fill.class);
        String shape = args[0];
        int blocks = Integer.parseInt(args[1]);
        long workMicros = Long.parseLong(args[2]);
        int outstanding = Integer.parseInt(args[3]);
        if (args.length > 4 && DFF.group().map(args[4]::equals).orElse(false)) {
            Hold.armed = true;
        }
        for (String each : shape.split("\\+")) { // one run after the other, across the same groups
            String result = run(each, blocks, workMicros, outstanding);
            if (DFF.group().map("S"::equals).orElse(true)) {
                System.out.println("RESULT: " + result);
                System.out.flush();
            }
        }
    }

    /** Runs the data-flow (in one process when no group is selected) and describes what group S computed. */
    static String run(String shape, int blocks, long workMicros, int outstanding) {
        double[][][] result;
        double[][][] expected;
        try (MacroDataFlow mdf = new MacroDataFlow(1, outstanding)
                .createGroup("S")
                .addWorkerGroup("W1", 1)
                .addWorkerGroup("W2", 1)
                .addWorkerGroup("W3", 1)) {
            if (shape.equals("loop")) {
                return loop(blocks * 500, workMicros / 8); // per index: some 20 indices a chunk
            }
            if (shape.equals("matmul")) {
                double[][][] a = random(blocks, 1), b = random(blocks, 2);
                result = new double[blocks][blocks][BS * BS];
                matmul(mdf, a, b, result, workMicros);
                expected = new double[blocks][blocks][BS * BS];
                matmulSequential(a, b, expected);
            } else {
                result = random(blocks, 3);
                expected = random(blocks, 3);
                wavefront(mdf, result, workMicros);
                wavefrontSequential(expected);
            }
        }
        return shape + " digest=" + Long.toHexString(digest(result)) + " equal=" + bitEqual(result, expected);
    }

    /** c += a * b on blocks of BS: parameters a, b, c. */
    public record Gemm(long workMicros) implements MacroDataFlow.Kernel {
        @Override
        public void run(Object[] p) {
            double[] a = (double[]) p[0], b = (double[]) p[1], c = (double[]) p[2];
            for (int i = 0; i < BS; i++) {
                for (int k = 0; k < BS; k++) {
                    double aik = a[i * BS + k];
                    for (int j = 0; j < BS; j++) {
                        c[i * BS + j] += aik * b[k * BS + j];
                    }
                }
            }
            pause(workMicros);
        }
    }

    /** x = x / 2 + (up + left) / 4 + x[e] * up[e] / 8, element by element: parameters up, left, x. */
    public record Wave(long workMicros) implements MacroDataFlow.Kernel {
        @Override
        public void run(Object[] p) {
            double[] up = (double[]) p[0], left = (double[]) p[1], x = (double[]) p[2];
            for (int e = 0; e < x.length; e++) {
                x[e] = x[e] / 2 + (up[e] + left[e]) / 4 + x[e] * up[e] / 8;
            }
            pause(workMicros);
        }
    }

    /**
     * a[i] = f(i), with a pause per index; group S prints {@code ran <k> in S} at every 100 indices it ran
     * (the test's clock, not a result: counted twice after a loss it would do no harm).
     */
    public record Fill(double[] a, long workMicros) implements IndexBody {
        @Override
        public void apply(long i) {
            a[(int) i] = value(i);
            pause(workMicros);
            if (DFF.group().map("S"::equals).orElse(false)) {
                int ran = RAN_IN_S.incrementAndGet();
                if (ran % 100 == 0) {
                    System.out.println("ran " + ran + " in S");
                    System.out.flush();
                }
            }
        }
    }

    private static final AtomicInteger RAN_IN_S = new AtomicInteger();

    static double value(long i) {
        return Math.sin(i) * i + 1;
    }

    static String loop(int n, long workMicros) {
        double[] a = new double[n];
        try (ParallelFor pf = new ParallelFor(1)
                .createGroup("S")
                .addWorkerGroup("W1", 1)
                .addWorkerGroup("W2", 1)
                .addWorkerGroup("W3", 1)) {
            pf.parallelFor(0, n, 1, 20, new Fill(a, workMicros));
        }
        boolean equal = true;
        for (int i = 0; i < n; i++) {
            equal &= Double.doubleToRawLongBits(a[i]) == Double.doubleToRawLongBits(value(i));
        }
        return "loop digest=" + Long.toHexString(digest(a)) + " equal=" + equal;
    }

    /** What {@link #loop} describes when it computed every index right, less its {@code equal=}. */
    static String loopDigest(int n) {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = value(i);
        }
        return "loop digest=" + Long.toHexString(digest(a));
    }

    private static long digest(double[] values) {
        long h = 0xcbf29ce484222325L;
        for (double v : values) {
            h = (h ^ Double.doubleToRawLongBits(v)) * 0x100000001b3L;
        }
        return h;
    }

    private static final int SWEEPS = 3;

    static void matmul(MacroDataFlow mdf, double[][][] a, double[][][] b, double[][][] c, long workMicros) {
        int nb = c.length;
        long total = (long) nb * nb * nb;
        mdf.run(g -> {
            Progress progress = new Progress(total);
            for (int i = 0; i < nb; i++) {
                for (int j = 0; j < nb; j++) {
                    for (int k = 0; k < nb; k++) {
                        g.add(new Gemm(workMicros), in(a[i][k]), in(b[k][j]), inout(c[i][j]));
                        progress.added();
                    }
                }
            }
        });
    }

    static void matmulSequential(double[][][] a, double[][][] b, double[][][] c) {
        int nb = c.length;
        for (int i = 0; i < nb; i++) {
            for (int j = 0; j < nb; j++) {
                for (int k = 0; k < nb; k++) {
                    new Gemm(0).run(new Object[] {a[i][k], b[k][j], c[i][j]});
                }
            }
        }
    }

    /**
     * Block (i, j) after (i-1, j) and (i, j-1), sweep after sweep: each block is read by two later tasks of
     * its sweep and written again by the next sweep, so every kind of dependency is there. The first row
     * and column read their neighbour on the other side (a torus): at least 2 blocks a side.
     */
    static void wavefront(MacroDataFlow mdf, double[][][] x, long workMicros) {
        int nb = x.length;
        long total = (long) SWEEPS * nb * nb;
        mdf.run(g -> {
            Progress progress = new Progress(total);
            for (int s = 0; s < SWEEPS; s++) {
                for (int i = 0; i < nb; i++) {
                    for (int j = 0; j < nb; j++) {
                        double[] up = x[(i + nb - 1) % nb][j], left = x[i][(j + nb - 1) % nb];
                        g.add(new Wave(workMicros), in(up), in(left), inout(x[i][j]));
                        progress.added();
                    }
                }
            }
        });
    }

    static void wavefrontSequential(double[][][] x) {
        int nb = x.length;
        for (int s = 0; s < SWEEPS; s++) {
            for (int i = 0; i < nb; i++) {
                for (int j = 0; j < nb; j++) {
                    new Wave(0).run(new Object[] {x[(i + nb - 1) % nb][j], x[i][(j + nb - 1) % nb], x[i][j]});
                }
            }
        }
    }

    /** Prints {@code progress <k>/20} at every twentieth of the tasks (the generator's thread, in group S only). */
    private static final class Progress {
        private final long total;
        private long added;

        Progress(long total) {
            this.total = total;
        }

        void added() {
            added++;
            if (added * 20 / total != (added - 1) * 20 / total) {
                System.out.println("progress " + added * 20 / total + "/20");
                System.out.flush();
            }
        }
    }

    /** In the group named {@code holdIn}: stops the worker inside its tenth task, for a test to kill it. */
    private static final class Hold {
        static volatile boolean armed;
        static final AtomicInteger TASKS = new AtomicInteger();

        static void maybe() {
            if (armed && TASKS.incrementAndGet() == 10) {
                System.out.println("holding a task");
                System.out.flush();
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(60)); // the test kills this process meanwhile
            }
        }
    }

    private static void pause(long micros) {
        Hold.maybe();
        if (micros > 0) {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(micros));
        }
    }

    static double[][][] random(int blocks, long seed) {
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

    /** FNV-1a over every value's bits. */
    static long digest(double[][][] m) {
        return digest(java.util.Arrays.stream(m)
                .flatMap(java.util.Arrays::stream)
                .flatMapToDouble(java.util.Arrays::stream)
                .toArray());
    }

    static boolean bitEqual(double[][][] x, double[][][] y) {
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < x[i].length; j++) {
                for (int e = 0; e < x[i][j].length; e++) {
                    if (Double.doubleToRawLongBits(x[i][j][e]) != Double.doubleToRawLongBits(y[i][j][e])) {
                        return false;
                    }
                }
            }
        }
        return true;
    }
}
