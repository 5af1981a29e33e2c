package org.fastflowj.stream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads the lines that start in byte ranges of files: a range {@code [start, end)} with {@code start >
 * 0} begins after the first line end at or after {@code start - 1} (that line belongs to the range before),
 * and takes every line that starts before {@code end}, reading on past {@code end} to finish the last.
 * So ranges that tile a file read each of its lines exactly once between them.
 */
final class LineReader implements SourceReader<String> {
    record Range(Path file, long start, long end) {}

    private final Iterator<Range> ranges;
    private final int batch;
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    private byte[] line = new byte[256];
    private int lineLength;
    private FileChannel channel;
    private Range range;
    /** The file offset of the next byte {@link #buffer} gives. */
    private long position;

    LineReader(List<Range> ranges, int batch) {
        this.ranges = ranges.iterator();
        this.batch = batch;
    }

    @Override
    public boolean emit(Consumer<? super String> out) throws IOException {
        for (int n = 0; n < batch; n++) {
            if (channel == null && !openNext()) {
                return false;
            }
            try {
                String next = position < range.end ? readLine() : null;
                if (next == null) {
                    channel.close();
                    channel = null;
                } else {
                    out.accept(next);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("source lines: cannot read " + range.file, e);
            }
        }
        return true;
    }

    private boolean openNext() throws IOException {
        if (!ranges.hasNext()) {
            return false;
        }
        range = ranges.next();
        channel = FileChannel.open(range.file, StandardOpenOption.READ);
        position = Math.max(0, range.start - 1);
        channel.position(position);
        buffer.clear().flip();
        if (range.start > 0) {
            // The line in progress at start - 1 (or the end that closes it there) is the range before's.
            readLine();
        }
        return true;
    }

    /** The next line from {@link #position} on, without its end; null at the end of the file. */
    private String readLine() throws IOException {
        lineLength = 0;
        boolean any = false;
        while (true) {
            if (!buffer.hasRemaining()) {
                buffer.clear();
                int read = channel.read(buffer);
                buffer.flip();
                if (read <= 0) {
                    return any ? decode() : null;
                }
            }
            any = true;
            byte b = buffer.get();
            position++;
            if (b == '\n') {
                if (lineLength > 0 && line[lineLength - 1] == '\r') {
                    lineLength--;
                }
                return decode();
            }
            if (lineLength == line.length) {
                line = Arrays.copyOf(line, line.length * 2);
            }
            line[lineLength++] = b;
        }
    }

    private String decode() {
        return new String(line, 0, lineLength, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
