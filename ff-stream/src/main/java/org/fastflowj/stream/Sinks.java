package org.fastflowj.stream;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Ready-made sinks: a list, a consumer, a file of lines that appears only whole, a directory of line
 * files that appear checkpoint by checkpoint.
 */
public final class Sinks {
    private Sinks() {}

    /** Collects the records; read them with {@link CollectSink#items()} after the run. */
    public static <T> CollectSink<T> collect() {
        return new CollectSink<>();
    }

    /** Hands every record to {@code action}, on the sink's thread. */
    public static <T> Sink<T> forEach(Consumer<? super T> action) {
        Objects.requireNonNull(action, "action");
        return new Sink<>() {
            @Override
            public String name() {
                return "forEach";
            }

            @Override
            public void write(T item) {
                action.accept(item);
            }
        };
    }

    /**
     * Writes every record's {@code toString()} as a line of {@code path}. The lines go to a temporary file
     * in the same directory, renamed to {@code path} (atomically where the file system can) when the job
     * succeeds; when it fails, the temporary file is deleted and {@code path} is neither created nor
     * replaced, so a failed job never leaves a truncated file that looks whole. An I/O error fails the job
     * and names the file.
     *
     * <p>With checkpoints it is exactly once: at each barrier the temporary file is flushed and forced to
     * disk and its length kept in the checkpoint; a restart cuts it back to that length. A run resumed
     * from the store in another process (a group the launcher started again) takes over the temporary file
     * the checkpoint names: once a checkpoint named it, a failed run leaves it (hidden, next to {@code
     * path}) instead of deleting it, and a run whose file was already renamed to {@code path} takes that
     * back, cut to the checkpoint's length.
     */
    public static <T> Sink<T> lines(Path path) {
        return new LinesSink<>(Objects.requireNonNull(path, "path").toAbsolutePath());
    }

    /**
     * Writes every record's {@code toString()} as a line ({@code \n}-ended, UTF-8) of a part file in
     * {@code directory} (created if missing), as Flink's file sink does: a long job's output shows before
     * it ends. Parts are named {@code part-0-<sequence>} (sequence zero-padded, so by name is in order;
     * {@code 0} is the sink's instance) and their concatenation in that order is the job's output. A part
     * is written under a hidden name ({@code .part-0-<sequence>.inprogress}, readable by its owner only)
     * and renamed when it is whole:
     *
     * <ul>
     *   <li>with checkpoints, at each barrier the part in progress is forced to disk and closed, pending;
     *       when the checkpoint completes its pending parts become visible, and the next line starts a new
     *       part. A restart commits the pending parts of the checkpoint it restores and deletes the hidden
     *       parts written after it, so every line is in exactly one visible part, and numbers the parts it
     *       writes as the failed run did: a visible part is never written again. A run that resumes from a
     *       checkpoint after an earlier run went on and committed (its parts past the checkpoint are
     *       visible) drops the lines those parts hold;
     *   <li>without, the job's output is one part, visible when the job succeeds;
     *   <li>when the job succeeds, the part in progress and those still pending become visible; when it
     *       fails, the part in progress is deleted and the pending ones stay hidden for a run that resumes.
     * </ul>
     *
     * <p>A new job numbers its parts after those already in the directory. An I/O error fails the job and
     * names the file.
     */
    public static <T> Sink<T> lineParts(Path directory) {
        return new LinePartsSink<>(
                Objects.requireNonNull(directory, "directory").toAbsolutePath());
    }
}
