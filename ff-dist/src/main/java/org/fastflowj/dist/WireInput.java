package org.fastflowj.dist;

import java.nio.ByteBuffer;

/**
 * Where an {@link ItemSerializer} reads one item back. Every read is bounded by the item: reading past its end
 * fails instead of running into the next item.
 *
 * <p>Threading: an instance belongs to one receiver thread and is only valid during the {@link ItemSerializer#read}
 * call it is passed to; do not keep it.
 */
public interface WireInput {

    /** Bytes of the current item not read yet. */
    int readableBytes();

    byte readByte();

    int readInt();

    long readLong();

    double readDouble();

    /** Fills {@code dst[offset, offset + length)} in one bulk copy. */
    void readBytes(byte[] dst, int offset, int length);

    /** Fills all of {@code dst.remaining()} bytes in one bulk copy, advancing {@code dst}'s position. */
    void readBytes(ByteBuffer dst);

    /** Fills {@code dst[offset, offset + length)} with doubles in one bulk copy. */
    void readDoubles(double[] dst, int offset, int length);
}
