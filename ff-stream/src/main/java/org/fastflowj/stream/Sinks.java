package org.fastflowj.stream;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
     */
    public static <T> Sink<T> lines(Path path) {
        return new LinesSink<>(Objects.requireNonNull(path, "path").toAbsolutePath());
    }

    private static final class LinesSink<T> implements Sink<T> {
        private final Path target;
        private Path temporary;
        private BufferedWriter writer;

        LinesSink(Path target) {
            this.target = target;
        }

        @Override
        public String name() {
            return "lines(" + target.getFileName() + ")";
        }

        @Override
        public void open() throws IOException {
            try {
                temporary = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
                // A JVM that exits inside the run, neither committing nor aborting (ff-dist's run that only
                // prints the program's groups), leaves no temporary file either.
                temporary.toFile().deleteOnExit();
                writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IOException("sink lines: cannot create a temporary file next to " + target + ": " + e, e);
            }
        }

        @Override
        public void write(T item) throws IOException {
            try {
                writer.write(String.valueOf(item));
                writer.newLine();
            } catch (IOException e) {
                throw new IOException("sink lines: cannot write " + target + " (through " + temporary + "): " + e, e);
            }
        }

        @Override
        public void commit() throws IOException {
            try {
                writer.close();
                try {
                    Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                abort();
                throw new IOException("sink lines: cannot complete " + target + ": " + e, e);
            }
        }

        @Override
        public void abort() {
            try {
                if (writer != null) {
                    writer.close();
                }
            } catch (IOException ignored) {
                // the temporary file is deleted next: what it held no longer matters
            }
            try {
                if (temporary != null) {
                    Files.deleteIfExists(temporary);
                }
            } catch (IOException ignored) {
                // a leftover hidden .tmp file never looks like the target
            }
        }
    }
}
