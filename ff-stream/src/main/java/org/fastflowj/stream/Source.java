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
}
