package org.fastflowj.examples.filesearch;

import java.util.Arrays;

/**
 * One matching line: its number (from 1) and its bytes, without the {@code \n} (a {@code \r} before it is
 * kept, as grep prints it). The bytes are kept as read, so the Writer prints exactly what grep would.
 */
public record MatchedLine(long number, byte[] bytes) {
    public MatchedLine {
        bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The line decoded in the platform charset (malformed input replaced), for display. */
    public String text() {
        return new String(bytes, FileSearch.nativeCharset());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MatchedLine that && number == that.number && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(number) + Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return number + ":" + text();
    }
}
