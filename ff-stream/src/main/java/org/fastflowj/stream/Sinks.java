package org.fastflowj.stream;

import java.io.BufferedWriter;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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
     * from the store in another process takes over the temporary file the checkpoint names, if it is
     * still there (a process killed leaves it; one that failed and aborted deleted it).
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
        public boolean exactlyOnce() {
            return true;
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            try {
                writer.flush();
                try (FileChannel file = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                    file.force(false);
                    out.writeUTF(temporary.toString());
                    out.writeLong(file.size());
                }
            } catch (IOException e) {
                throw new IOException("sink lines: cannot make " + temporary + " durable: " + e, e);
            }
        }

        @Override
        public void restore(DataInput in) throws IOException {
            Path saved = Path.of(in.readUTF());
            long length = in.readLong();
            writer.close();
            if (!saved.equals(temporary)) {
                if (!Files.isRegularFile(saved)) {
                    throw new IOException(
                            "sink lines: cannot resume " + target + ": its checkpoint's file " + saved + " is gone");
                }
                Files.move(saved, temporary, StandardCopyOption.REPLACE_EXISTING);
            }
            try (FileChannel file = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                if (file.size() < length) {
                    throw new IOException(
                            "sink lines: " + temporary + " holds " + file.size() + " bytes, its checkpoint " + length);
                }
                file.truncate(length);
            }
            writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
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
