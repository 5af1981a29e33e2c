package org.fastflowj.examples.wordcount;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Cuts a byte stream into {@link TextChunk}s of whole lines (a line ends at {@code \n}), each up to about
 * {@link #CHUNK_BYTES} (a longer line makes a chunk of its own), and stops after the last line that
 * starts before {@code endOffset}: the owner of a file part reads every line starting in it, the last one
 * maybe past the part's end. {@code maxLines} bounds the lines per chunk (a rate-limited source).
 *
 * <p>Threading: one source thread.
 */
final class LineChunker {
    /** Big enough that a hand-off per chunk costs nothing, small enough to share the file out to splitters. */
    static final int CHUNK_BYTES = 64 * 1024;

    private final InputStream in;
    private final long endOffset;
    private final int maxLines;
    private final boolean fillBeforeCut;
    private byte[] buffer = new byte[CHUNK_BYTES];
    /** Bytes of {@link #buffer} read and not yet cut into a chunk. */
    private int filled;
    /** Offset in the stream of {@code buffer[0]}. */
    private long bufferOffset;

    private boolean endOfStream;
    private boolean done;

    /**
     * @param startOffset the stream offset of its first byte
     * @param fillBeforeCut read until the buffer is full before cutting (a file); else cut what one read
     *     returned (a socket: a chunk leaves as soon as its lines arrived)
     */
    LineChunker(InputStream in, long startOffset, long endOffset, int maxLines, boolean fillBeforeCut) {
        this.in = in;
        this.bufferOffset = startOffset;
        this.endOffset = endOffset;
        this.maxLines = maxLines;
        this.fillBeforeCut = fillBeforeCut;
    }

    /** Skips to just past the next {@code \n} (the line there belongs to the part before); false at the end. */
    boolean skipLine() throws IOException {
        while (true) {
            for (int i = 0; i < filled; i++) {
                if (buffer[i] == '\n') {
                    consume(i + 1);
                    return true;
                }
            }
            consume(filled);
            if (!read()) {
                done = true;
                return false;
            }
        }
    }

    /** The next chunk, or null when every line of the part was returned. */
    TextChunk next() throws IOException {
        while (!done) {
            TextChunk chunk = cut();
            if (chunk != null) {
                return chunk;
            }
            if (done || endOfStream) {
                done = true;
            } else {
                if (filled == buffer.length) {
                    buffer = Arrays.copyOf(buffer, buffer.length * 2); // one line longer than the buffer
                }
                read();
                while (fillBeforeCut && !endOfStream && filled < buffer.length) {
                    read();
                }
            }
        }
        return null;
    }

    /** The stream offset of the first byte no chunk returned yet: the start of a line, once one was cut. */
    long nextLineOffset() {
        return bufferOffset;
    }

    /** Whole lines at the buffer's start as a chunk, or null if there is no whole line yet. */
    private TextChunk cut() {
        int end = 0;
        int lines = 0;
        while (end < filled && lines < maxLines) {
            if (bufferOffset + end >= endOffset) { // this line starts past the part: its owner reads it
                done = true;
                break;
            }
            int newline = indexOfNewline(end);
            if (newline < 0) {
                if (!endOfStream) {
                    break; // the line goes on in bytes not read yet
                }
                end = filled; // the stream's last line has no newline
            } else {
                end = newline + 1;
            }
            lines++;
        }
        if (lines == 0) {
            return null;
        }
        TextChunk chunk = new TextChunk(Arrays.copyOf(buffer, end), lines);
        consume(end);
        return chunk;
    }

    private int indexOfNewline(int from) {
        for (int i = from; i < filled; i++) {
            if (buffer[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private void consume(int bytes) {
        System.arraycopy(buffer, bytes, buffer, 0, filled - bytes);
        filled -= bytes;
        bufferOffset += bytes;
    }

    private boolean read() throws IOException {
        int n = in.read(buffer, filled, buffer.length - filled);
        if (n < 0) {
            endOfStream = true;
            return false;
        }
        filled += n;
        return true;
    }
}
