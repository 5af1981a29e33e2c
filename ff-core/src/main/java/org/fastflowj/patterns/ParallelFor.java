package org.fastflowj.patterns;

import java.util.Objects;
import java.util.function.BinaryOperator;
import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;
import java.util.function.Supplier;
import org.fastflowj.core.RunOptions;

/**
 * Parallel loops and reductions over {@code long} indices (FastFlow's {@code ParallelFor} and
 * {@code ParallelForReduce}): a farm whose emitter schedules the iterations, started once and driven
 * through an accelerator, so its workers park between calls at no CPU cost.
 *
 * <pre>
 *   try (ParallelFor pf = new ParallelFor(4)) {
 *       pf.parallelFor(0, n, i -> a[(int) i] = f(i));
 *       long sum = pf.reduceLong(0, n, 1, 0, 0L, (s, i) -> s + a[(int) i], Long::sum);
 *   }
 * </pre>
 *
 * <p>Indices are those a Java {@code for} loop visits from {@code first} towards {@code last}
 * (exclusive) by {@code step} (positive or negative, never 0), each exactly once, without overflow at the
 * ends of the {@code long} range. {@code grain <= 0} splits them into one contiguous block per worker;
 * {@code grain > 0} cuts chunks of {@code grain} iterations that free workers take one at a time
 * (on-demand, for uneven iterations). An empty loop runs nothing and a reduction returns its identity.
 *
 * <p>Reductions fold each worker's iterations into its own partial, starting from the identity, then
 * combine the partials on the calling thread in worker order: with static blocks that is index order, so
 * the combiner need only be associative; with dynamic chunks it must also be commutative.
 *
 * <p>Failures: a body that throws fails the call with a {@link ParallelForException} whose cause is what
 * it threw; no new chunk starts after it, and the pattern stays usable for the next call.
 *
 * <p>Threading: any thread may call; one call at a time runs on the workers. A call made while they are
 * busy — from inside a body (a nested loop) or from another thread — runs on the calling thread, so
 * nesting never deadlocks. The caller does not take part: it waits (spinning briefly, then parked) while
 * the workers run, so on a machine with as many workers as cores it leaves every core to them, and the
 * farm stays the one place where work is scheduled.
 */
public final class ParallelFor implements AutoCloseable {
    private final LoopEngine engine;
    private final MdfGroups groups = new MdfGroups();
    /** With worker groups: how calls run; null in one process only. */
    private GroupLoops acrossGroups;

    /** One worker per available processor. */
    public ParallelFor() {
        this(Runtime.getRuntime().availableProcessors());
    }

    public ParallelFor(int workers) {
        this(workers, LoopEngine.DEFAULT_OPTIONS);
    }

    /**
     * {@code workers} workers run with {@code options} (wait strategy, thread mapping); by default they
     * block between calls ({@link org.fastflowj.core.WaitStrategy#BLOCKING}).
     *
     * @throws IllegalArgumentException if {@code workers < 1}
     */
    public ParallelFor(int workers, RunOptions options) {
        if (workers < 1) {
            throw new IllegalArgumentException("ParallelFor(" + workers + "): at least 1 worker is needed");
        }
        this.engine = new LoopEngine(workers, Objects.requireNonNull(options, "options"));
    }

    public int workers() {
        return engine.workers();
    }

    /**
     * Names the distributed group of the caller and this pattern's workers; only needed with {@link
     * #addWorkerGroup}.
     *
     * @return this pattern
     */
    public ParallelFor createGroup(String name) {
        groups.home(name);
        return this;
    }

    /**
     * Adds {@code workers} workers in distributed group {@code name}. From then on {@link #parallelFor} and the
     * reductions run each call as a {@link MacroDataFlow} of the loop's chunks over this pattern's workers and
     * those of the worker groups (the chunks go to free workers, this group's first; in one process, with no
     * group selected, all run here). A body then crosses groups by class name and fields, so it is a named
     * class or record, not a lambda; a {@code parallelFor} body writes only element {@code i} of its array
     * fields for index {@code i}, and those elements come back; a reduction's identity and partials cross
     * too, the combiner runs on the caller. Every process of the program makes the same calls; in a worker
     * group's process a call returns once its part ended, with nothing to read. {@link #parallelForIdx} stays
     * in this process.
     *
     * <p>A call survives the loss of worker groups as a macro data-flow does: the chunks a lost group had not
     * answered run again on the workers left, so the body must have no effect but on the elements it writes
     * (and a reduction's on its partial).
     *
     * @return this pattern
     */
    public ParallelFor addWorkerGroup(String name, int workers) {
        if (!groups.hasHome()) {
            throw new IllegalStateException("ParallelFor.addWorkerGroup(\"" + name + "\") before createGroup(name):"
                    + " name the group of the caller and this pattern's workers first");
        }
        groups.addWorkers(name, workers);
        MacroDataFlow mdf = new MacroDataFlow(engine.workers()).createGroup(groups.homeGroup());
        for (var g : groups.workerGroupSizes().entrySet()) {
            mdf.addWorkerGroup(g.getKey(), g.getValue());
        }
        acrossGroups = new GroupLoops(engine.workers(), groups, mdf);
        return this;
    }

    /** {@code for (long i = first; i < last; i++) body.apply(i)}, in one static block per worker. */
    public void parallelFor(long first, long last, IndexBody body) {
        parallelFor(first, last, 1, 0, body);
    }

    /** Runs {@code body} for every index of the loop; {@code grain} as in the class comment. */
    public void parallelFor(long first, long last, long step, long grain, IndexBody body) {
        Objects.requireNonNull(body, "body");
        long count = LoopRange.count(first, last, step);
        if (acrossGroups != null) {
            if (count > 0) {
                acrossGroups.parallelFor(first, step, grain, count, body);
            }
            return;
        }
        LoopJob job = engine.acquire();
        try {
            job.kind = LoopJob.Kind.EACH;
            job.eachBody = body;
            engine.execute(job, first, last, step, grain, count);
        } finally {
            engine.release(job);
        }
    }

    /**
     * Hands {@code body} whole chunks (FastFlow's {@code parallel_for_idx}): a static block or a dynamic
     * chunk at a time, with the worker's number, for bodies that set up per-chunk state once.
     */
    public void parallelForIdx(long first, long last, long step, long grain, ChunkBody body) {
        Objects.requireNonNull(body, "body");
        long count = LoopRange.count(first, last, step);
        LoopJob job = engine.acquire();
        try {
            job.kind = LoopJob.Kind.CHUNKS;
            job.chunkBody = body;
            engine.execute(job, first, last, step, grain, count);
        } finally {
            engine.release(job);
        }
    }

    /** A {@code long} reduction, without boxing; {@code identity} for an empty loop. */
    public long reduceLong(
            long first,
            long last,
            long step,
            long grain,
            long identity,
            LongReduceBody body,
            LongBinaryOperator combiner) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(combiner, "combiner");
        long count = LoopRange.count(first, last, step);
        if (acrossGroups != null) {
            return count == 0 ? identity : acrossGroups.reduceLong(first, step, grain, count, identity, body, combiner);
        }
        LoopJob job = engine.acquire();
        try {
            job.kind = LoopJob.Kind.LONG;
            job.longBody = body;
            job.longIdentity = identity;
            engine.execute(job, first, last, step, grain, count);
            return job.participants == 0 ? identity : job.combineLong(combiner);
        } finally {
            engine.release(job);
        }
    }

    /** A {@code double} reduction, without boxing; {@code identity} for an empty loop. */
    public double reduceDouble(
            long first,
            long last,
            long step,
            long grain,
            double identity,
            DoubleReduceBody body,
            DoubleBinaryOperator combiner) {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(combiner, "combiner");
        long count = LoopRange.count(first, last, step);
        if (acrossGroups != null) {
            return count == 0
                    ? identity
                    : acrossGroups.reduceDouble(first, step, grain, count, identity, body, combiner);
        }
        LoopJob job = engine.acquire();
        try {
            job.kind = LoopJob.Kind.DOUBLE;
            job.doubleBody = body;
            job.doubleIdentity = identity;
            engine.execute(job, first, last, step, grain, count);
            return job.participants == 0 ? identity : job.combineDouble(combiner);
        } finally {
            engine.release(job);
        }
    }

    /**
     * A reduction into objects: each taking-part worker starts from its own {@code identity.get()} (so a
     * mutable container needs no lock), the partials are then combined. An empty loop returns
     * {@code identity.get()}.
     */
    @SuppressWarnings("unchecked")
    public <R> R reduce(
            long first,
            long last,
            long step,
            long grain,
            Supplier<? extends R> identity,
            ReduceBody<R> body,
            BinaryOperator<R> combiner) {
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(combiner, "combiner");
        long count = LoopRange.count(first, last, step);
        if (acrossGroups != null) {
            return count == 0
                    ? identity.get()
                    : acrossGroups.reduce(first, step, grain, count, identity, body, combiner);
        }
        LoopJob job = engine.acquire();
        try {
            job.kind = LoopJob.Kind.OBJECT;
            job.objectBody = (ReduceBody<Object>) body;
            job.objectIdentity = identity;
            engine.execute(job, first, last, step, grain, count);
            return job.participants == 0 ? identity.get() : job.combineObjects(combiner);
        } finally {
            engine.release(job);
        }
    }

    /**
     * Ends every worker, after the call running on them (if any) ended; later calls throw
     * {@link IllegalStateException}. Closing twice does nothing.
     *
     * @throws IllegalStateException if called from inside a body of this pattern
     */
    @Override
    public void close() {
        engine.close();
    }

    @Override
    public String toString() {
        return "ParallelFor(" + engine.workers() + " workers)";
    }
}
