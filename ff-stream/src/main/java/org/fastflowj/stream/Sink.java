package org.fastflowj.stream;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

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

    /**
     * With checkpoints: whether this sink goes back to a checkpoint's output on a restart
     * ({@link #snapshot}, {@link #restore}), so that what it finally holds is written exactly once. Any
     * other sink keeps what it was given after the last checkpoint and is given it again (at least once);
     * the job says so when it starts.
     */
    default boolean exactlyOnce() {
        return false;
    }

    /**
     * At a checkpoint's barrier, on the sink's thread: writes what {@link #restore} needs to return to
     * this point, everything written so far made durable if the sink is {@link #exactlyOnce}.
     */
    default void snapshot(long checkpointId, DataOutput out) throws IOException {}

    /** On a restart, before the first record: back to the point a {@link #snapshot} saw. */
    default void restore(DataInput in) throws IOException {}

    /** Checkpoint {@code checkpointId} is durable: on the run's checkpoint thread. */
    default void checkpointCompleted(long checkpointId) {}

    /** After a successful run, on the thread that ran the job. */
    default void commit() throws Exception {}

    /** After a failed or cancelled run, on the thread that ran the job; must not throw. */
    default void abort() {}
}
