package org.fastflowj.dist;

import java.nio.ByteBuffer;

/**
 * Where an {@link ItemSerializer} writes an item. Multi-byte values are big-endian.
 *
 * <p>Threading: an instance belongs to one sender thread and is only valid during the {@link ItemSerializer#write}
 * call it is passed to; do not keep it.
 */
public interface WireOutput {

    void writeByte(int value);

    void writeInt(int value);

    void writeLong(long value);

    void writeDouble(double value);

    /** Copies {@code length} bytes of {@code src} from {@code offset} in one bulk copy. */
    void writeBytes(byte[] src, int offset, int length);

    /** Copies all of {@code src.remaining()} bytes in one bulk copy, advancing {@code src}'s position. */
    void writeBytes(ByteBuffer src);

    /** Copies {@code length} doubles of {@code src} from {@code offset} in one bulk copy (8 bytes each). */
    void writeDoubles(double[] src, int offset, int length);
}
