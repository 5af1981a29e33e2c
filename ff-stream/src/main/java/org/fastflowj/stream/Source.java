package org.fastflowj.stream;

/**
 * Where a stream's records come from. With parallelism {@code n} the job opens {@code n} readers, one
 * per instance, each on its own node thread; together they read the source once.
 *
 * @param <T> the records' type
 */
public interface Source<T> {
    /** The operator name the source shows in {@code toDot()} and the run's statistics. */
    String name();

    /** The largest parallelism this source can be read with. */
    default int maxParallelism() {
        return Integer.MAX_VALUE;
    }

    /** A reader for instance {@code instance} of {@code instances}, opened on that instance's thread. */
    SourceReader<T> open(int instance, int instances) throws Exception;

    /**
     * Whether this source's readers can go back to where a checkpoint saw them
     * ({@link SourceReader#savePosition}, {@link SourceReader#seek}): a job with checkpoints needs every
     * source to, and names the one that cannot before it starts.
     */
    default boolean replayable() {
        return false;
    }

    /**
     * After a successful run, once every sink has committed, on the thread that ran the job: a source
     * that records its progress outside the job (a broker's committed offsets) records what this run
     * read. Since the sinks commit first, a failure in between reads records again on the next run
     * (duplicates), never skips them. A failure here fails the job, after the other sources aborted.
     * Run as several groups, every group's process calls it when its own part succeeded: the source
     * records what its readers in that process read, and the sinks that came first are those of that
     * group only.
     */
    default void commit() throws Exception {}

    /**
     * After a failed or cancelled run, on the thread that ran the job: releases what readers that never
     * reached their end still hold, and records no progress; must not throw.
     */
    default void abort() {}
}
