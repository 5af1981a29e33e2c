package org.fastflowj.examples.wordcount;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.Node;
import org.fastflowj.examples.InputException;

/**
 * Sc: sends out the lines (without their {@code \n}) of its part of a file, or of a TCP connection, at
 * most {@code rate} lines per second when a rate is given.
 *
 * <p>With K sources on one file, source {@code i} owns the bytes {@code [i*size/K, (i+1)*size/K)} and
 * reads every line that <em>starts</em> there (the last one may run past the end): the K parts together
 * are each line of the file exactly once, whatever K.
 *
 * <p>Threading: one node thread; everything happens in the single {@code svc} call.
 */
final class LineSource extends Node<Void, String> {
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
    protected String svc(Void none) throws IOException {
        startNs = System.nanoTime();
        if (file != null) {
            readFilePart();
        } else {
            readSocket();
        }
        return eos();
    }

    private void readFilePart() {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            long start = size * part / parts;
            long end = size * (part + 1) / parts;
            long position = Math.max(0, start - 1);
            channel.position(position);
            InputStream in = new BufferedInputStream(Channels.newInputStream(channel), 1 << 16);
            ByteArrayOutputStream line = new ByteArrayOutputStream(320);
            if (start > 0) { // skip the line that started before our part: its owner reads it
                position += readLine(in, line);
            }
            while (position < end) {
                long read = readLine(in, line);
                if (read == 0) {
                    break;
                }
                position += read;
                emit(line.toString(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new InputException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private void readSocket() throws IOException {
        try (Socket s = new Socket()) {
            s.connect(socket, (int) TimeUnit.SECONDS.toMillis(10));
            InputStream in = new BufferedInputStream(s.getInputStream(), 1 << 16);
            ByteArrayOutputStream line = new ByteArrayOutputStream(320);
            while (readLine(in, line) > 0) {
                emit(line.toString(StandardCharsets.UTF_8));
            }
        }
    }

    /** Reads up to and including the next {@code \n} into {@code line} (without it); returns bytes consumed. */
    private static long readLine(InputStream in, ByteArrayOutputStream line) throws IOException {
        line.reset();
        long consumed = 0;
        int b;
        while ((b = in.read()) >= 0) {
            consumed++;
            if (b == '\n') {
                break;
            }
            line.write(b);
        }
        return consumed;
    }

    private void emit(String line) {
        if (rate > 0) { // the n-th line is due n/rate seconds after the start
            long due = startNs + (long) (sent * 1e9 / rate);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
        sent++;
        sendOut(line);
    }

    @Override
    public String toString() {
        return "LineSource[" + (file != null ? file + " part " + part + "/" + parts : socket) + "]";
    }
}
