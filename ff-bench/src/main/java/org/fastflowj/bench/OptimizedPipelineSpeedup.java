package org.fastflowj.bench;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.fastflowj.core.OptLevel;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * A pipeline of six fine stages run as written (six threads) and with {@link OptLevel#LEVEL1} (fused
 * down to the available processors):
 *
 * <pre>
 *   [source] ─▶ [stage] ─▶ [stage] ─▶ [stage] ─▶ [stage] ─▶ [sink]       NONE: 6 threads, BACKOFF
 *   [source  stage  stage] ─▶ [stage  stage  sink]                         LEVEL1 on 2 cores: 2 threads
 * </pre>
 *
 * Every stage does {@code grainNanos} of busy work per item and passes on one pre-allocated item, so
 * nothing is allocated per item. Gain = NONE time / LEVEL1 time. The threads start, and the optimizer
 * plans, inside each invocation in both variants; its one-line-per-rewrite log is turned down to WARN so
 * that the measurement does not print.
 */
@Fork(
        value = 1,
        jvmArgs = {
            "-Xms1g",
            "-Xmx1g",
            "-XX:+AlwaysPreTouch",
            "-Dorg.slf4j.simpleLogger.log.org.fastflowj.core.optimize=warn"
        })
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class OptimizedPipelineSpeedup extends AbstractBenchmark {
    public static final int ITEMS = 1_000_000;
    public static final int STAGES = 6;
    private static final Object ITEM = new Object();

    @State(Scope.Benchmark)
    public static class Work {
        @Param({"NONE", "LEVEL1"})
        public OptLevel level;

        /** Busy work per stage and item; 0 is one step of it, i.e. empty stages. */
        @Param({"0", "50"})
        public int grainNanos;

        int iterations;
        RunOptions options;

        @Setup(Level.Trial)
        public void setUp() {
            prepare(level, iterationsFor(grainNanos));
        }

        void prepare(OptLevel optLevel, int iterationsPerStage) {
            iterations = iterationsPerStage;
            options = RunOptions.defaults().optimize(optLevel);
        }
    }

    /** The grain alone, for the sequential bound. */
    @State(Scope.Benchmark)
    public static class Grain {
        /** As {@link Work#grainNanos}. */
        @Param({"0", "50"})
        public int grainNanos;

        int iterations;

        @Setup(Level.Trial)
        public void setUp() {
            iterations = iterationsFor(grainNanos);
        }
    }

    static int iterationsFor(int grainNanos) {
        return (int) Math.max(1, Math.round(BusyWork.iterationsPerMicro() * grainNanos / 1000.0));
    }

    @Benchmark
    public long sixStages(Work work) {
        return run(work.iterations, ITEMS, work.options);
    }

    /**
     * The bound: the six stages' work on one thread, as a plain loop with no node, channel or thread
     * around it. No program can run the same work on two cores in less than half this time.
     */
    @Benchmark
    public long sequentialBound(Grain grain) {
        return sequential(grain.iterations, ITEMS);
    }

    /**
     * The two-core bound: the six stages' work split over two plain threads, three stages each, every
     * item, nothing passed between them. No program that runs the pipeline on two threads beats this on
     * the machine it is measured on (it has the same work and no hand-off), so {@code NONE / splitBound}
     * is the largest gain LEVEL1 can show at that grain.
     */
    @Benchmark
    public long splitBound(Grain grain) throws InterruptedException {
        return split(grain.iterations, ITEMS);
    }

    /** The work of {@link #run} on two plain threads, each running half of the stages on every item. */
    static long split(int iterations, int items) throws InterruptedException {
        Stage[] stages = stages(iterations, items);
        int half = STAGES / 2;
        Thread second = new Thread(() -> runStages(stages, half, STAGES, items), "split-bound");
        second.start();
        runStages(stages, 0, half, items);
        second.join();
        return total(stages);
    }

    private static void runStages(Stage[] stages, int from, int to, int items) {
        for (int item = 0; item < items; item++) {
            for (int s = from; s < to; s++) {
                stages[s].doWork();
            }
        }
    }

    /** Runs the six stages over {@code items} items; returns the sum of every stage's work, which the checks compare. */
    static long run(int iterations, int items, RunOptions options) {
        Stage[] stages = stages(iterations, items);
        new Pipeline(stages).runAndWaitEnd(options);
        return total(stages);
    }

    /** The work of {@link #run} without the pipeline: every stage's work on every item, in the same order. */
    static long sequential(int iterations, int items) {
        Stage[] stages = stages(iterations, items);
        for (int item = 0; item < items; item++) {
            for (Stage stage : stages) {
                stage.doWork();
            }
        }
        return total(stages);
    }

    private static Stage[] stages(int iterations, int items) {
        Stage[] stages = new Stage[STAGES];
        stages[0] = new Source(iterations, items);
        for (int i = 1; i < STAGES - 1; i++) {
            stages[i] = new Stage(iterations);
        }
        stages[STAGES - 1] = new Sink(iterations);
        return stages;
    }

    private static long total(Stage[] stages) {
        long sum = 0;
        for (Stage s : stages) {
            sum += s.work + s.seen;
        }
        return sum;
    }

    static class Stage extends Node<Object, Object> {
        final int iterations;
        long work;
        long seen;

        Stage(int iterations) {
            this.iterations = iterations;
        }

        final void doWork() {
            seen++;
            work = BusyWork.spin(iterations, work + seen);
        }

        @Override
        protected Object svc(Object item) {
            doWork();
            return item;
        }
    }

    static final class Source extends Stage {
        private final int items;

        Source(int iterations, int items) {
            super(iterations);
            this.items = items;
        }

        @Override
        protected Object svc(Object none) {
            if (seen == items) {
                return eos();
            }
            doWork();
            return ITEM;
        }
    }

    static final class Sink extends Stage {
        Sink(int iterations) {
            super(iterations);
        }

        @Override
        protected Object svc(Object item) {
            doWork();
            return goOn();
        }
    }
}
