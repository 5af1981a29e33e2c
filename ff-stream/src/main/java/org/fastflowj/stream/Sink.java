package org.fastflowj.stream;

/**
 * Where a stream's records end. The job opens every sink before its run, writes from one thread at a
 * time, and after the run either commits (the job succeeded) or aborts (it failed), so a sink can make
 * its output appear only whole.
 *
 * @param <T> the records' type
 */
public interface Sink<T> {
    /** The operator name the sink shows in {@code toDot()}, the statistics and failures. */
    String name();

    /** Before the run, on the thread that runs the job. */
    default void open() throws Exception {}

    /** One record; called by one thread at a time. */
    void write(T item) throws Exception;

    /** After a successful run, on the thread that ran the job. */
    default void commit() throws Exception {}

    /** After a failed or cancelled run, on the thread that ran the job; must not throw. */
    default void abort() {}
}
