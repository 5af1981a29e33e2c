package org.fastflowj.bench;

import java.util.Locale;
import org.openjdk.jmh.annotations.CompilerControl;

/**
 * A calibrated unit of CPU work for the farm benchmarks: a chain of xorshift steps, each depending on the
 * previous one, so the JIT can neither vectorise it nor fold it into a closed form, and its result is
 * returned (and summed into the benchmark's result, which JMH consumes) so it cannot be dropped.
 *
 * <p>Calibration: {@link #iterationsPerMicro()} is measured once per JVM (warm the loop up, then time
 * {@value #CALIBRATION_ITERATIONS} iterations several times and keep the fastest round). Each JMH fork
 * would calibrate on its own and differ by a few percent, which would bias a ratio between two forks;
 * so run-benchmarks.sh calibrates once ({@code java -cp benchmarks.jar org.fastflowj.bench.BusyWork})
 * and hands the figure to every fork as {@code -Dff.bench.itersPerMicro=...}: then the sequential loop,
 * the ExecutorService and the farm do exactly the same iterations per task.
 *
 * <p>Threading: stateless apart from the calibration, which is computed once and then only read.
 */
public final class BusyWork {
    /** System property fixing the calibration (iterations per microsecond) for every fork of a run. */
    public static final String ITERS_PER_MICRO_PROPERTY = "ff.bench.itersPerMicro";

    static final int CALIBRATION_ITERATIONS = 10_000_000;
    private static final int CALIBRATION_ROUNDS = 10;
    private static final int WARMUP_CALLS = 20_000;
    private static final int WARMUP_ITERATIONS = 5_000;

    private static volatile double itersPerMicro;
    /** Calibration results go here, so the timed work is neither dropped nor moved out of the timed span. */
    @SuppressWarnings("unused")
    private static volatile long fence;

    private BusyWork() {}

    /**
     * Runs {@code iterations} dependent xorshift steps from {@code seed}; about {@code iterations /
     * iterationsPerMicro()} µs. Never inlined (in JMH forks), so every caller runs the same machine code.
     */
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public static long spin(int iterations, long seed) {
        long x = seed | 1L; // xorshift must not start at 0
        for (int i = 0; i < iterations; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    /** Iterations of {@link #spin} per microsecond of this machine: the system property, else calibrated once. */
    public static double iterationsPerMicro() {
        double value = itersPerMicro;
        if (value == 0) {
            synchronized (BusyWork.class) {
                value = itersPerMicro;
                if (value == 0) {
                    String fixed = System.getProperty(ITERS_PER_MICRO_PROPERTY);
                    value = fixed != null ? parse(fixed) : calibrate();
                    itersPerMicro = value;
                }
            }
        }
        return value;
    }

    /** Iterations of {@link #spin} that take about {@code micros} µs (at least 1). */
    public static int iterationsFor(int micros) {
        return (int) Math.max(1, Math.round(iterationsPerMicro() * micros));
    }

    /** Iterations of {@link #spin} that take about {@code micros} µs, fractions of a µs included (at least 1). */
    public static int iterationsFor(double micros) {
        return (int) Math.max(1, Math.round(iterationsPerMicro() * micros));
    }

    /** Measures iterations per microsecond: JIT warm-up, then the fastest of several timed rounds. */
    static double calibrate() {
        long sink = 0;
        for (int i = 0; i < WARMUP_CALLS; i++) {
            sink += spin(WARMUP_ITERATIONS, i);
        }
        long best = Long.MAX_VALUE;
        for (int round = 0; round < CALIBRATION_ROUNDS; round++) {
            long start = System.nanoTime();
            // Seeded from the clock and published through a volatile store before the clock is read
            // again: the JIT can move the loop neither before the first read nor after the second.
            fence = spin(CALIBRATION_ITERATIONS, start);
            best = Math.min(best, System.nanoTime() - start);
        }
        fence += sink;
        return CALIBRATION_ITERATIONS * 1_000.0 / Math.max(1, best);
    }

    private static double parse(String text) {
        try {
            double value = Double.parseDouble(text.trim());
            if (value > 0 && Double.isFinite(value)) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("-D" + ITERS_PER_MICRO_PROPERTY + "=" + text
                + ": expected a positive number of iterations per microsecond");
    }

    /** Prints the calibration (iterations per µs) alone on one line, for run-benchmarks.sh. */
    public static void main(String[] args) {
        System.out.println(String.format(Locale.ROOT, "%.3f", calibrate()));
    }
}
