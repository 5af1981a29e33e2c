package org.fastflowj.patterns;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import org.fastflowj.core.Farm;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.RunOptions;

/**
 * Divide and conquer on a farm with feedback, as FastFlow's {@code ff_DC}: a problem that is not a base
 * case is divided into sub-problems, each solved the same way, and their results are combined.
 *
 * <pre>
 *        ┌──────────── divided problem / solved result / combined result ─────────┐
 *        ▼                                                                         │
 *   scheduler ──┬──▶ worker0 ── isBase? solve : divide;  or combine ──┐            │
 *   (task tree) └──▶ worker1 ── ...                                 ──┴────────────┘
 * </pre>
 *
 * The scheduler (the farm's emitter) keeps the tree of pending problems: it hands each sub-problem to a
 * worker, slots every result into its parent, and hands the parent to a worker for {@code combine} once
 * its last child is solved. The workers run {@code isBase}, {@code solve}, {@code divide} and {@code
 * combine}, so every user function runs in parallel; only the book-keeping is sequential. A divide may
 * return any number of sub-problems, zero (then {@code combine} gets an empty list) or one included.
 *
 * <p>Reusable: every {@link #run} starts its own farm and ends it before returning, so nothing is kept
 * between runs (hence not {@code AutoCloseable}) and several threads may call {@code run} at once.
 *
 * <p>Threading: {@code divide}, {@code combine}, {@code solve} and {@code isBase} are called on worker
 * threads, concurrently for different problems; each sub-problem's result is visible to the {@code
 * combine} that gets it (every hand-over goes through a channel, which orders memory).
 *
 * @param <P> the problem type
 * @param <R> the result type
 */
public final class DivideAndConquer<P, R> {
    private final Function<? super P, ? extends List<? extends P>> divide;
    private final Function<? super List<R>, ? extends R> combine;
    private final Function<? super P, ? extends R> solve;
    private final Predicate<? super P> isBase;
    private final int workers;
    private final RunOptions options;

    /**
     * @param divide splits a problem that is not a base case into sub-problems
     * @param combine makes a problem's result from its sub-problems' results, in {@code divide}'s order
     * @param solve solves a base case sequentially
     * @param isBase whether a problem is solved directly rather than divided
     * @param workers worker threads (the scheduler takes one more)
     */
    public DivideAndConquer(
            Function<? super P, ? extends List<? extends P>> divide,
            Function<? super List<R>, ? extends R> combine,
            Function<? super P, ? extends R> solve,
            Predicate<? super P> isBase,
            int workers) {
        this(divide, combine, solve, isBase, workers, RunOptions.defaults());
    }

    /** As {@link #DivideAndConquer(Function, Function, Function, Predicate, int)}, run with {@code options}. */
    public DivideAndConquer(
            Function<? super P, ? extends List<? extends P>> divide,
            Function<? super List<R>, ? extends R> combine,
            Function<? super P, ? extends R> solve,
            Predicate<? super P> isBase,
            int workers,
            RunOptions options) {
        this.divide = Objects.requireNonNull(divide, "divide");
        this.combine = Objects.requireNonNull(combine, "combine");
        this.solve = Objects.requireNonNull(solve, "solve");
        this.isBase = Objects.requireNonNull(isBase, "isBase");
        this.options = Objects.requireNonNull(options, "options");
        if (workers < 1) {
            throw new IllegalArgumentException("DivideAndConquer: workers must be >= 1, got " + workers);
        }
        this.workers = workers;
    }

    /**
     * Solves {@code problem} and returns its result, once every thread of the run has ended.
     *
     * @throws DivideAndConquerException if a user function threw (it names which, the cause is the
     *     exception); the whole run is then cancelled and has ended
     */
    public R run(P problem) {
        DcScheduler<P, R> scheduler = new DcScheduler<>(problem);
        Farm farm = Farm.of(workers, () -> new DcWorker<>(this))
                .emitter(scheduler)
                .onDemand()
                .wrapAround();
        try {
            farm.runInProcessAndWaitEnd(options);
        } catch (NodeFailedException e) {
            if (e.getCause() instanceof DivideAndConquerException failed) {
                // a new exception, so that the caller's stack is in it too; the worker's is in the cause chain
                DivideAndConquerException here = new DivideAndConquerException(failed.function(), failed.getCause());
                here.addSuppressed(e);
                throw here;
            }
            throw e;
        }
        return scheduler.result();
    }

    boolean isBase(P problem) {
        return isBase.test(problem);
    }

    R solve(P problem) {
        return solve.apply(problem);
    }

    List<? extends P> divide(P problem) {
        return divide.apply(problem);
    }

    R combine(List<R> results) {
        return combine.apply(results);
    }
}
