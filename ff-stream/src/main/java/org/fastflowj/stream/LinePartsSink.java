package org.fastflowj.stream;

import java.io.BufferedWriter;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;

/** {@link Sinks#lineParts}. */
final class LinePartsSink<T> implements Sink<T> {
    /** A sink runs as one instance (its stream's parallelism is 1), so its parts are all instance 0's. */
    private static final int INSTANCE = 0;

    /** A part closed at a barrier: visible once its checkpoint completes. */
    private record Pending(long sequence, long checkpointId, long length) {}

    private final PartFiles files;
    /** Guarded by this: the checkpoint thread publishes them while the sink's thread adds more. */
    private final List<Pending> pending = new ArrayList<>();
    /** The sequence number the next part takes. */
    private long nextSequence;
    /**
     * Bytes an earlier run made visible past the checkpoint this run restored (it committed at its end):
     * the same bytes come again first, and are dropped rather than written twice.
     */
    private long alreadyVisible;

    private long partSequence;
    private Writer part;
    private FileChannel partChannel;

    LinePartsSink(Path directory) {
        this.files = new PartFiles(directory, INSTANCE);
    }

    @Override
    public String name() {
        return "lineParts(" + files.directory().getFileName() + ")";
    }

    /** Numbers the parts after every part in the directory, so a new job never writes over an old one's. */
    @Override
    public void open() throws IOException {
        try {
            Files.createDirectories(files.directory());
        } catch (IOException e) {
            throw new IOException("sink lineParts: cannot create the directory " + files.directory() + ": " + e, e);
        }
        nextSequence = Math.max(after(files.visibleParts()), after(files.hiddenParts()));
    }

    private static long after(NavigableMap<Long, Path> parts) {
        return parts.isEmpty() ? 0 : parts.lastKey() + 1;
    }

    @Override
    public void write(T item) throws IOException {
        String line = String.valueOf(item);
        if (alreadyVisible > 0) {
            alreadyVisible -= line.getBytes(StandardCharsets.UTF_8).length + 1;
            return;
        }
        if (part == null) {
            startPart();
        }
        try {
            part.write(line);
            part.write('\n');
        } catch (IOException e) {
            throw new IOException("sink lineParts: cannot write " + files.hidden(partSequence) + ": " + e, e);
        }
    }

    /** Lazily, at the first line after a barrier: a checkpoint with nothing new makes no empty part. */
    private void startPart() throws IOException {
        partSequence = nextSequence++;
        partChannel = files.create(partSequence);
        part = new BufferedWriter(
                new OutputStreamWriter(Channels.newOutputStream(partChannel), StandardCharsets.UTF_8));
    }

    /** Flushes, forces and closes the part in progress: from now on it is pending under {@code checkpointId}. */
    private Pending closePart(long checkpointId) throws IOException {
        Path file = files.hidden(partSequence);
        try {
            part.flush();
            partChannel.force(true);
            long length = partChannel.size();
            part.close();
            return new Pending(partSequence, checkpointId, length);
        } catch (IOException e) {
            try {
                partChannel.close();
            } catch (IOException ignored) {
                // the failure to make it durable is the one that matters
            }
            throw new IOException("sink lineParts: cannot make " + file + " durable: " + e, e);
        } finally {
            part = null;
            partChannel = null;
        }
    }

    @Override
    public boolean exactlyOnce() {
        return true;
    }

    @Override
    public synchronized void snapshot(long checkpointId, DataOutput out) throws IOException {
        if (part != null) {
            pending.add(closePart(checkpointId));
            files.forceDirectory();
        }
        out.writeLong(nextSequence);
        out.writeLong(alreadyVisible);
        out.writeInt(pending.size());
        for (Pending p : pending) {
            out.writeLong(p.sequence());
            out.writeLong(p.length());
        }
    }

    @Override
    public synchronized void checkpointCompleted(long checkpointId) {
        boolean published = false;
        for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            if (p.checkpointId() <= checkpointId) {
                try {
                    files.publish(p.sequence());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                it.remove();
                published = true;
            }
        }
        if (published) {
            files.forceDirectory();
        }
    }

    /**
     * Commits the checkpoint's pending parts (it completed, though its notice may not have come), deletes
     * every hidden part after them (work that is done again) and numbers the next part as the checkpoint
     * did, or after the visible parts an earlier run committed past it.
     */
    @Override
    public synchronized void restore(DataInput in) throws IOException {
        long next = in.readLong();
        long skip = in.readLong();
        int count = in.readInt();
        discardPart();
        pending.clear();
        for (Path stale : files.hiddenParts().tailMap(next, true).values()) {
            try {
                Files.deleteIfExists(stale);
            } catch (IOException e) {
                throw new IOException("sink lineParts: cannot delete " + stale + ": " + e, e);
            }
        }
        for (int i = 0; i < count; i++) {
            long sequence = in.readLong();
            cutTo(sequence, in.readLong());
            files.publish(sequence);
        }
        NavigableMap<Long, Path> committedPast = files.visibleParts().tailMap(next, true);
        for (Path part : committedPast.values()) {
            skip += Files.size(part);
        }
        nextSequence = Math.max(next, after(committedPast));
        alreadyVisible = skip;
        files.forceDirectory();
    }

    /** A pending part as its checkpoint saw it, unless it was made visible already. */
    private void cutTo(long sequence, long length) throws IOException {
        Path file = files.hidden(sequence);
        if (!Files.isRegularFile(file)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            if (channel.size() < length) {
                throw new IOException(
                        "sink lineParts: " + file + " holds " + channel.size() + " bytes, its checkpoint " + length);
            }
            channel.truncate(length);
        }
    }

    @Override
    public synchronized void commit() throws IOException {
        if (part != null) {
            pending.add(closePart(Long.MAX_VALUE));
        }
        for (Pending p : pending) {
            files.publish(p.sequence());
        }
        pending.clear();
        files.forceDirectory();
    }

    /**
     * Deletes the part in progress, which no checkpoint names; the pending ones stay for a run that resumes
     * from a checkpoint naming them (which commits them) or not (which deletes them).
     */
    @Override
    public synchronized void abort() {
        discardPart();
    }

    private void discardPart() {
        if (part == null) {
            return;
        }
        try {
            part.close();
        } catch (IOException ignored) {
            // deleted next: what it failed to write is written again by the run that resumes
        }
        part = null;
        partChannel = null;
        try {
            Files.deleteIfExists(files.hidden(partSequence));
        } catch (IOException ignored) {
            // hidden, never looks like a part, and a run that resumes deletes it
        }
    }
}
