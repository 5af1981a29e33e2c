package org.fastflowj.examples.wordcount;

import java.io.Closeable;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.Node;
import org.fastflowj.core.checkpoint.Checkpointed;
import org.fastflowj.examples.InputException;

/**
 * Sc: sends out the lines of its part of a file, or of a TCP connection, in {@link TextChunk}s of whole
 * lines ({@link LineChunker}), at most {@code rate} lines per second when a rate is given.
 *
 * <p>With K sources on one file, source {@code i} owns the bytes {@code [i*size/K, (i+1)*size/K)} and
 * reads every line that <em>starts</em> there (the last one may run past the end): the K parts together
 * are each line of the file exactly once, whatever K.
 *
 * <p>One chunk per {@code svc} call, so that a checkpoint's barrier can follow any chunk. Its checkpointed
 * state is the file offset of the first line it has not sent: a restart reads on from there. What a
 * socket sent is gone once read, so a socket source does not {@link #replays() replay}, and a run with
 * checkpoints refuses it.
 *
 * <p>Threading: one node thread.
 */
final class LineSource extends Node<Void, TextChunk> implements Checkpointed {
    /** With a rate, a chunk holds at most this share of a second's lines, so the pace stays smooth. */
    private static final int RATE_CHUNKS_PER_SECOND = 1000;

    /** {@link #resumeAt} when the part is read from its start (its first line found by skipping). */
    private static final long FROM_PART_START = -1;

    private final Path file;
    private final InetSocketAddress socket;
    private final int part;
    private final int parts;
    private final double rate;
    /** Where the next open reads from: {@link #FROM_PART_START}, or a restored line's offset. */
    private long resumeAt = FROM_PART_START;
    /** The open file or socket, and its lines; null before the first chunk and after the last. */
    private Closeable input;

    private LineChunker lines;
    private boolean ended;
    /** Lines sent since the input was opened, and when: the pace counts from there. */
    private long sent;

    private long startNs;

    /** A source of part {@code part} of {@code parts} of {@code file}, or of {@code socket} when file is null. */
    LineSource(Path file, InetSocketAddress socket, int part, int parts, double rate) {
        this.file = file;
        this.socket = socket;
        this.part = part;
        this.parts = parts;
        this.rate = rate;
    }

    @Override
    protected TextChunk svc(Void none) throws IOException {
        if (lines == null && !ended) {
            open();
        }
        TextChunk chunk = ended ? null : lines.next();
        if (chunk == null) {
            close();
            ended = true;
            return eos();
        }
        pace(chunk);
        return chunk;
    }

    private void open() throws IOException {
        startNs = System.nanoTime();
        sent = 0;
        if (file != null) {
            openFilePart();
        } else {
            openSocket();
        }
    }

    private int maxLinesPerChunk() {
        return rate > 0 ? (int) Math.max(1, rate / RATE_CHUNKS_PER_SECOND) : Integer.MAX_VALUE;
    }

    private void openFilePart() {
        try {
            FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
            input = channel;
            long size = channel.size();
            long start = size * part / parts;
            long end = size * (part + 1) / parts;
            long position = resumeAt != FROM_PART_START ? resumeAt : Math.max(0, start - 1);
            channel.position(position);
            lines = new LineChunker(Channels.newInputStream(channel), position, end, maxLinesPerChunk(), true);
            if (resumeAt == FROM_PART_START
                    && start > 0
                    && !lines.skipLine()) { // the line that started before our part: its owner reads it
                ended = true;
            }
        } catch (IOException e) {
            throw new InputException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private void openSocket() throws IOException {
        Socket s = new Socket();
        input = s;
        s.connect(socket, (int) TimeUnit.SECONDS.toMillis(10));
        lines = new LineChunker(s.getInputStream(), 0, Long.MAX_VALUE, maxLinesPerChunk(), false);
    }

    private void pace(TextChunk chunk) {
        if (rate > 0) { // the n-th line is due n/rate seconds after the start
            long due = startNs + (long) (sent * 1e9 / rate);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
        sent += chunk.lines();
    }

    private void close() throws IOException {
        Closeable open = input;
        input = null;
        lines = null;
        if (open != null) {
            open.close();
        }
    }

    @Override
    protected void svcEnd() {
        try {
            close();
        } catch (IOException e) {
            // every line was read: a failing close loses nothing
        }
    }

    @Override
    public void snapshot(long checkpointId, DataOutput out) throws IOException {
        out.writeLong(lines != null ? lines.nextLineOffset() : resumeAt);
    }

    @Override
    public void restore(DataInput in) throws IOException {
        close(); // a restart in this process: the failed attempt's reader, wherever it was
        ended = false;
        resumeAt = in.readLong();
    }

    /** Only a file can be read again from an offset. */
    @Override
    public boolean replays() {
        return file != null;
    }

    @Override
    public String toString() {
        return file != null
                ? "LineSource[" + file + " part " + part + "/" + parts + "]"
                : "LineSource[socket " + socket + ": its lines cannot be read again after a restart]";
    }
}
