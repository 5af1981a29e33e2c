package org.fastflowj.core;

/**
 * How much the static optimizer may rewrite a program before it runs (FastFlow's {@code OptLevel}); see
 * {@link RunOptions#optimize(OptLevel)}. Every rewrite keeps what the program computes: the same results,
 * the same order out of an ordered farm, the same feedback, on-demand, EOS and {@code eosNotify}
 * behaviour; only the threads that carry it change.
 */
public enum OptLevel {
    /** Run the program as written: one thread per node. */
    NONE,
    /**
     * Flatten nested pipelines; let the sequential stage after an ordered farm be its collector; merge a
     * sequential stage into the next farm's emitter; then, while the program has more threads than
     * {@link RunOptions#maxThreads()}, fuse neighbouring sequential stages into combiners; if it still has
     * more, wait with {@link WaitStrategy#BLOCKING}.
     */
    LEVEL1,
    /**
     * LEVEL1, after first merging consecutive farms: of equal width into one (worker {@code i} becomes the
     * combiner of the two workers {@code i}), of other widths into one farm of an all-to-all of both sets of
     * workers (the second emitter goes), and a farm's collector into the next farm's emitter.
     */
    LEVEL2
}
