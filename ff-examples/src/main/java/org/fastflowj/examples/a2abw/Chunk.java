package org.fastflowj.examples.a2abw;

/**
 * A piece of the file: where it starts, its bytes, and when its L-Worker sent it (epoch ns). Crosses groups
 * with {@link ChunkSerializer}.
 */
public record Chunk(long offset, byte[] data, long sentNs) {
    /** The position-weighted sum of the bytes: sum of (byte + 1) * (position + 1), modulo 2^64. */
    long weightedSum() {
        long sum = 0;
        for (int i = 0; i < data.length; i++) {
            sum += ((data[i] & 0xffL) + 1) * (offset + i + 1);
        }
        return sum;
    }
}
