package org.fastflowj.stream;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * One instance's reader of a {@link Source}. The job calls {@link #emit} again and again on the
 * instance's thread, so a reader should hand out a bounded batch per call (the run checks for
 * cancellation between calls), then {@link #close}.
 *
 * @param <T> the records' type
 */
public interface SourceReader<T> {
    /**
     * Gives some records to {@code out}.
     *
     * @return false when the source has no more records
     */
    boolean emit(Consumer<? super T> out) throws Exception;

    /**
     * Writes where the reader is (between two {@link #emit} calls), for a checkpoint: a restart
     * {@link #seek}s a fresh reader there and reads on from the next record. Readers of a
     * {@link Source#replayable} source implement both.
     */
    default void savePosition(DataOutput out) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot save its position");
    }

    /**
     * {@link #savePosition(DataOutput)} for checkpoint {@code checkpointId}: a reader that records its
     * progress outside the job once a checkpoint completes ({@link #checkpointCompleted}) overrides this
     * one to keep which position that checkpoint saw.
     */
    default void savePosition(long checkpointId, DataOutput out) throws IOException {
        savePosition(out);
    }

    /**
     * Checkpoint {@code checkpointId} is durable: a reader may now record, outside the job, the position
     * it saved for it (a broker's committed offsets), never one past it, since a restart goes back only to
     * a completed checkpoint. Runs on the run's checkpoint thread, not the reader's, so it must not
     * block for long nor touch what only the reader's thread may; it can come after {@link #close}.
     */
    default void checkpointCompleted(long checkpointId) {}

    /** Moves a reader just opened to a position {@link #savePosition} wrote. */
    default void seek(DataInput in) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot seek");
    }

    /** After the last {@link #emit}, on the same thread. */
    default void close() throws Exception {}
}
