package org.fastflowj.stream;

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

    /** After the last {@link #emit}, on the same thread. */
    default void close() throws Exception {}
}
