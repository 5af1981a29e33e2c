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

    /** Moves a reader just opened to a position {@link #savePosition} wrote. */
    default void seek(DataInput in) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot seek");
    }

    /** After the last {@link #emit}, on the same thread. */
    default void close() throws Exception {}
}
