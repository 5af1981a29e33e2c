package org.fastflowj.examples.wordcount;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.Node;
import org.fastflowj.examples.InputException;

/**
 * Sc: sends out the lines of its part of a file, or of a TCP connection, in {@link TextChunk}s of whole
 * lines ({@link LineChunker}), at most {@code rate} lines per second when a rate is given.
 *
 * <p>With K sources on one file, source {@code i} owns the bytes {@code [i*size/K, (i+1)*size/K)} and
 * reads every line that <em>starts</em> there (the last one may run past the end): the K parts together
 * are each line of the file exactly once, whatever K.
 *
 * <p>Threading: one node thread; everything happens in the single {@code svc} call.
 */
final class LineSource extends Node<Void, TextChunk> {
    /** With a rate, a chunk holds at most this share of a second's lines, so the pace stays smooth. */
    private static final int RATE_CHUNKS_PER_SECOND = 1000;

    private final Path file;
    private final InetSocketAddress socket;
    private final int part;
    private final int parts;
    private final double rate;
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
        startNs = System.nanoTime();
        if (file != null) {
            readFilePart();
        } else {
            readSocket();
        }
        return eos();
    }

    private int maxLinesPerChunk() {
        return rate > 0 ? (int) Math.max(1, rate / RATE_CHUNKS_PER_SECOND) : Integer.MAX_VALUE;
    }

    private void readFilePart() {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            long start = size * part / parts;
            long end = size * (part + 1) / parts;
            long position = Math.max(0, start - 1);
            channel.position(position);
            LineChunker lines =
                    new LineChunker(Channels.newInputStream(channel), position, end, maxLinesPerChunk(), true);
            if (start > 0 && !lines.skipLine()) { // the line that started before our part: its owner reads it
                return;
            }
            emitAll(lines);
        } catch (IOException e) {
            throw new InputException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private void readSocket() throws IOException {
        try (Socket s = new Socket()) {
            s.connect(socket, (int) TimeUnit.SECONDS.toMillis(10));
            InputStream in = s.getInputStream();
            emitAll(new LineChunker(in, 0, Long.MAX_VALUE, maxLinesPerChunk(), false));
        }
    }

    private void emitAll(LineChunker lines) throws IOException {
        for (TextChunk chunk = lines.next(); chunk != null; chunk = lines.next()) {
            emit(chunk);
        }
    }

    private void emit(TextChunk chunk) {
        if (rate > 0) { // the n-th line is due n/rate seconds after the start
            long due = startNs + (long) (sent * 1e9 / rate);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
        sent += chunk.lines();
        sendOut(chunk);
    }

    @Override
    public String toString() {
        return "LineSource[" + (file != null ? file + " part " + part + "/" + parts : socket) + "]";
    }
}
