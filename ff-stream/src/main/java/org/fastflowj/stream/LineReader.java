package org.fastflowj.stream;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
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

    private final List<Range> ranges;
    /** How many of {@link #ranges} were opened. */
    private int opened;

    private final int batch;
    private final byte[] bytes = new byte[64 * 1024];
    private final ByteBuffer buffer = ByteBuffer.wrap(bytes);
    /** The bytes read and not yet taken: {@code bytes[head, tail)}. */
    private int head;

    private int tail;
    /** The start of a line that began in an earlier read, carried over until its end is read. */
    private byte[] line = new byte[256];

    private int lineLength;
    private FileChannel channel;
    private Range range;
    /** The file offset of the next byte {@link #buffer} gives. */
    private long position;

    LineReader(List<Range> ranges, int batch) {
        this.ranges = List.copyOf(ranges);
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
        if (opened == ranges.size()) {
            return false;
        }
        range = ranges.get(opened++);
        channel = FileChannel.open(range.file, StandardOpenOption.READ);
        position = Math.max(0, range.start - 1);
        channel.position(position);
        head = 0;
        tail = 0;
        if (range.start > 0) {
            // The line in progress at start - 1 (or the end that closes it there) is the range before's.
            readLine();
        }
        return true;
    }

    /**
     * The next line from {@link #position} on, without its end; null at the end of the file. A line that
     * lies within one read becomes a string straight from the read's bytes; one that spans reads is
     * carried over in {@link #line}.
     */
    private String readLine() throws IOException {
        lineLength = 0;
        boolean any = false;
        while (true) {
            if (head == tail) {
                buffer.clear();
                int read = channel.read(buffer);
                head = 0;
                tail = Math.max(read, 0);
                if (read <= 0) {
                    return any ? decodeCarried() : null;
                }
            }
            any = true;
            int from = head;
            int end = from;
            while (end < tail && bytes[end] != '\n') {
                end++;
            }
            if (end == tail) {
                carry(from, end);
                position += end - from;
                head = end;
                continue;
            }
            position += end + 1 - from;
            head = end + 1;
            if (lineLength == 0) {
                if (end > from && bytes[end - 1] == '\r') {
                    end--;
                }
                return new String(bytes, from, end - from, StandardCharsets.UTF_8);
            }
            carry(from, end);
            if (line[lineLength - 1] == '\r') {
                lineLength--;
            }
            return decodeCarried();
        }
    }

    private void carry(int from, int to) {
        int length = to - from;
        if (lineLength + length > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + length));
        }
        System.arraycopy(bytes, from, line, lineLength, length);
        lineLength += length;
    }

    private String decodeCarried() {
        return new String(line, 0, lineLength, StandardCharsets.UTF_8);
    }

    /** The range being read (or the next to open) and the offset of the next line in it. */
    @Override
    public void savePosition(DataOutput out) throws IOException {
        out.writeInt(opened);
        out.writeBoolean(channel != null);
        out.writeLong(position);
    }

    @Override
    public void seek(DataInput in) throws IOException {
        close();
        channel = null;
        opened = in.readInt();
        boolean reading = in.readBoolean();
        long offset = in.readLong();
        if (opened < 0 || opened > ranges.size() || (reading && opened == 0)) {
            throw new IOException("source lines: a checkpoint at range " + opened + " of " + ranges.size());
        }
        if (reading) {
            range = ranges.get(opened - 1);
            channel = FileChannel.open(range.file, StandardOpenOption.READ);
            channel.position(offset);
            position = offset;
            head = 0;
            tail = 0;
        }
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
