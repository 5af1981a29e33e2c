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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** {@link Sinks#lines}. */
final class LinesSink<T> implements Sink<T> {
    /**
     * Temporary files no checkpoint names yet: deleted when the JVM exits inside the run, neither
     * committing nor aborting (ff-dist's run that only prints the program's groups). One a checkpoint
     * names stays, for the run that resumes from it.
     */
    private static final Set<Path> UNCLAIMED = unclaimedFiles();

    private final Path target;
    private Path temporary;
    private BufferedWriter writer;
    /** A checkpoint names the temporary file: a failed run leaves it for the run that resumes. */
    private boolean named;

    private static Set<Path> unclaimedFiles() {
        Set<Path> files = ConcurrentHashMap.newKeySet();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> files.forEach(LinesSink::deleteQuietly), "ff-lines-tmp"));
        return files;
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a leftover hidden .tmp file never looks like the target
        }
    }

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
            UNCLAIMED.add(temporary);
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
                named = true;
                UNCLAIMED.remove(temporary);
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
        if (!saved.equals(temporary) || !Files.isRegularFile(temporary)) {
            takeOver(saved, length);
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

    /**
     * Makes the checkpoint's file this sink's temporary file: the one it names, or, when an earlier run
     * committed it already, the target it was renamed to (its first {@code length} bytes are what the
     * checkpoint saw).
     */
    private void takeOver(Path saved, long length) throws IOException {
        Path from = saved;
        if (!Files.isRegularFile(saved)) {
            if (!Files.isRegularFile(target) || Files.size(target) < length) {
                throw new IOException(
                        "sink lines: cannot resume " + target + ": its checkpoint's file " + saved + " is gone");
            }
            from = target;
        }
        if (!from.equals(temporary)) {
            Files.move(from, temporary, StandardCopyOption.REPLACE_EXISTING);
        }
        UNCLAIMED.remove(temporary);
        named = true;
    }

    @Override
    public void commit() throws IOException {
        try {
            writer.close();
            UNCLAIMED.remove(temporary);
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
            // the temporary file is deleted or left for a resumed run next: nothing more is written to it
        }
        if (temporary != null) {
            UNCLAIMED.remove(temporary);
            if (!named) {
                deleteQuietly(temporary);
            }
        }
    }
}
