package org.fastflowj.dist.serial;

import com.esotericsoftware.kryo.io.Input;

/**
 * A Kryo {@link Input} over one item's bytes that refuses any length it reads from the stream when the bytes left
 * could not hold that many elements. Kryo allocates an array of the announced length before reading into it, so
 * without this check a garbage length of 2^30 would allocate gigabytes.
 *
 * <p>Every element takes at least one byte on the wire (varint or not), so "count &lt;= bytes left" is a safe bound
 * for every element type: it never refuses a well-formed item.
 */
final class BoundedInput extends Input {

    BoundedInput() {
        super(0);
    }

    /** Bytes left in this item. */
    int remaining() {
        return limit - position;
    }

    void requireCount(long count, String what) {
        requireCount(count, 1, what);
    }

    /** Refuses {@code count} elements of at least {@code minBytesEach} bytes when the item cannot hold them. */
    void requireCount(long count, int minBytesEach, String what) {
        if (count < 0 || count * minBytesEach > remaining()) {
            throw new CorruptFrameException(what + " announces " + count + " elements (at least " + minBytesEach
                    + " bytes each) with only " + remaining() + " bytes left in the item");
        }
    }

    @Override
    public byte[] readBytes(int length) {
        requireCount(length, "byte array");
        return super.readBytes(length);
    }

    @Override
    public int[] readInts(int length) {
        requireCount(length, Integer.BYTES, "int array");
        return super.readInts(length);
    }

    @Override
    public int[] readInts(int length, boolean optimizePositive) {
        requireCount(length, "int array");
        return super.readInts(length, optimizePositive);
    }

    @Override
    public long[] readLongs(int length) {
        requireCount(length, Long.BYTES, "long array");
        return super.readLongs(length);
    }

    @Override
    public long[] readLongs(int length, boolean optimizePositive) {
        requireCount(length, "long array");
        return super.readLongs(length, optimizePositive);
    }

    @Override
    public float[] readFloats(int length) {
        requireCount(length, Float.BYTES, "float array");
        return super.readFloats(length);
    }

    @Override
    public double[] readDoubles(int length) {
        requireCount(length, Double.BYTES, "double array");
        return super.readDoubles(length);
    }

    @Override
    public short[] readShorts(int length) {
        requireCount(length, Short.BYTES, "short array");
        return super.readShorts(length);
    }

    @Override
    public char[] readChars(int length) {
        requireCount(length, Character.BYTES, "char array");
        return super.readChars(length);
    }

    @Override
    public boolean[] readBooleans(int length) {
        requireCount(length, "boolean array");
        return super.readBooleans(length);
    }

    @Override
    public String readString() {
        checkStringLength();
        return super.readString();
    }

    @Override
    public StringBuilder readStringBuilder() {
        checkStringLength();
        return super.readStringBuilder();
    }

    /**
     * Kryo writes a string either as ASCII bytes (high bit of the first byte clear; bounded by the buffer itself) or
     * as a char count + 1 in its "varint with flag" form followed by UTF-8, and allocates a char[] of that count
     * first. Peek at the count and refuse it if the item cannot hold that many chars.
     */
    private void checkStringLength() {
        if (position >= limit || (buffer[position] & 0x80) == 0) {
            return;
        }
        int start = position;
        int countPlusOne = readVarIntFlag(true);
        position = start;
        if (countPlusOne > 1) { // 0 is null, 1 is ""
            requireCount(countPlusOne - 1L, "string");
        }
    }

    /** Reads a length-first value's varint length without consuming it, and bounds it. */
    void checkLeadingLength(String what) {
        int start = position;
        int lengthPlusOne = readVarInt(true);
        position = start;
        if (lengthPlusOne > 1) { // 0 is null
            requireCount(lengthPlusOne - 1L, what);
        }
    }
}
