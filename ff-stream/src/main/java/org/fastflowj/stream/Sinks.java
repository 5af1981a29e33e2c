package org.fastflowj.stream;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;

/** Ready-made sinks: a list, a consumer, a file of lines that appears only whole. */
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
}
