package org.fastflowj.examples.a2abw;

import java.time.Instant;

/**
 * A piece of the file: where it starts, its bytes, and when its L-Worker sent it (epoch ns). Crosses groups
 * with {@link ChunkSerializer}.
 */
public record Chunk(long offset, byte[] data, long sentNs) {
    /** The clock of send and end times: epoch nanoseconds, comparable between the groups of one machine. */
    static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** The position-weighted sum of the bytes: sum of (byte + 1) * (position + 1), modulo 2^64. */
    long weightedSum() {
        long sum = 0;
        for (int i = 0; i < data.length; i++) {
            sum += ((data[i] & 0xffL) + 1) * (offset + i + 1);
        }
        return sum;
    }
}
