package org.fastflowj.dist.run.bridge;

import java.util.Arrays;

/**
 * The serialized bytes of what a receiver put on its forward channels and their consumers have not taken
 * yet: what bounds a receiving group's heap in bytes ({@code maxBufferedBytesPerLink}), where channel
 * capacities bound it only in items (a channel of 2048 slots holds 128 MiB of 64 KiB items).
 *
 * <p>A channel is FIFO, so per channel it keeps the sizes of the runs (chunks or single items) it sent,
 * oldest first, in a ring: when the channel reports {@code n} runs still queued, every older run was
 * taken, and its bytes leave the total. The channel may report more queued than there are (its consumer's
 * index is read late), never fewer: the total is late at worst, never low.
 *
 * <p>Threading: the receiver's thread only. Nothing is allocated, except when a ring grows (to the
 * most runs its channel ever held).
 */
final class ChannelBytes {
    private static final int INITIAL_RING = 64;

    /** What a forward channel holds of what was sent on it: runs not taken yet, 0 if its consumer ended. */
    @FunctionalInterface
    interface Queued {
        int runsQueued(int channel);
    }

    private final int[][] rings;
    private final int[] oldest;
    private final int[] runs;
    private long total;

    ChannelBytes(int channels) {
        rings = new int[channels][];
        oldest = new int[channels];
        runs = new int[channels];
        for (int i = 0; i < channels; i++) {
            rings[i] = new int[INITIAL_RING];
        }
    }

    /** The bytes on every channel, as of the last {@link #refresh}, plus what was sent since. */
    long total() {
        return total;
    }

    /** A run of {@code bytes} went on {@code channel}. */
    void sent(int channel, int bytes) {
        int[] ring = rings[channel];
        if (runs[channel] == ring.length) {
            ring = grow(channel);
        }
        ring[(oldest[channel] + runs[channel]) & (ring.length - 1)] = bytes;
        runs[channel]++;
        total += bytes;
    }

    /** Drops what the consumers took (or will never take: a consumer that ended); returns the new total. */
    long refresh(Queued channels) {
        for (int channel = 0; channel < rings.length; channel++) {
            if (runs[channel] == 0) {
                continue;
            }
            int queued = channels.runsQueued(channel);
            int[] ring = rings[channel];
            while (runs[channel] > queued) {
                total -= ring[oldest[channel]];
                oldest[channel] = (oldest[channel] + 1) & (ring.length - 1);
                runs[channel]--;
            }
        }
        return total;
    }

    private int[] grow(int channel) {
        int[] old = rings[channel];
        int[] bigger = new int[old.length * 2];
        for (int i = 0; i < runs[channel]; i++) {
            bigger[i] = old[(oldest[channel] + i) & (old.length - 1)];
        }
        oldest[channel] = 0;
        rings[channel] = bigger;
        return bigger;
    }

    @Override
    public String toString() {
        return "ChannelBytes[total=" + total + ", runs=" + Arrays.toString(runs) + "]";
    }
}
