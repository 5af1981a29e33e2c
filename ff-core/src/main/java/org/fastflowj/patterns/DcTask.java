package org.fastflowj.patterns;

import java.util.List;

/**
 * One problem of a {@link DivideAndConquer} run, travelling between the scheduler and the workers. Its
 * fields are written by one thread at a time: the channel hand-over between scheduler and worker orders
 * every write before the next reader's reads, so plain fields suffice.
 */
final class DcTask<P, R> {
    enum Step {
        /** To a worker: solve or divide {@link #problem}. */
        PROBLEM,
        /** Back from a worker: {@link #children} hold the sub-problems. */
        DIVIDED,
        /** To a worker: combine {@link #childResults}. */
        COMBINE,
        /** Back from a worker: {@link #result} is this problem's result. */
        DONE
    }

    final DcTask<P, R> parent;
    /** Index of this problem among its parent's sub-problems, where its result goes. */
    final int slot;

    Step step = Step.PROBLEM;
    P problem;
    List<? extends P> children;
    Object[] childResults;
    int pendingChildren;
    R result;

    DcTask(DcTask<P, R> parent, int slot, P problem) {
        this.parent = parent;
        this.slot = slot;
        this.problem = problem;
    }
}
