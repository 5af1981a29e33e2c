package org.fastflowj.dist.run.bridge;

import org.fastflowj.dist.GroupConfig;

/**
 * How many messages a sender's batch holds before it leaves: the config's {@code batchSize}, or with {@code
 * "auto"} as many as the observed rate brings within {@code flushDelayMicros}, between 1 and {@link
 * GroupConfig#AUTO_MAX_BATCH_SIZE}.
 *
 * <p>A fixed size serves one rate: a large one makes a trickle wait {@code flushDelayMicros} for company that does
 * not come, batch 1 pays a frame, a credit and a wake-up per message at full rate. With {@code "auto"}, a stream
 * whose messages come further apart than the flush delay sends each at once (the latency of batch 1), and a full
 * stream fills large batches (the throughput of a large fixed size). The rate is measured per batch, not per
 * message (one clock read each side of a send): the time from the end of the previous send to this one, over the
 * messages it carries, so waiting for credits (the receiver's pace, not the producer's) does not count. Each
 * sample moves the estimate halfway: a burst after a trickle of 2 ms gaps reaches large batches within a dozen
 * batches, and a lone pair of messages in a trickle does not make the next one wait.
 *
 * <p>Threading: the sender node's thread only; allocates nothing.
 */
final class BatchSizer {
    /** The bytes at which an adaptive batch leaves, however few messages it holds. */
    static final int AUTO_MAX_BATCH_BYTES = 256 * 1024;

    private final boolean adaptive;
    private final int fixed;
    private final long flushDelayNanos;
    /** Messages at which the current batch leaves. */
    private int target;
    /** Estimated time between two messages, while the producer keeps the sender busy or makes it wait. */
    private long nanosPerMessage;

    private long lastSendEndNanos = -1;

    /** {@code batchSize} as configured ({@link GroupConfig#AUTO_BATCH_SIZE} for {@code "auto"}). */
    BatchSizer(int batchSize, long flushDelayNanos) {
        this.adaptive = batchSize == GroupConfig.AUTO_BATCH_SIZE;
        this.fixed = adaptive ? GroupConfig.AUTO_MAX_BATCH_SIZE : batchSize;
        this.flushDelayNanos = flushDelayNanos;
        this.target = adaptive ? 1 : batchSize; // a stream is a trickle until it shows otherwise
        this.nanosPerMessage = Long.MAX_VALUE / 2;
    }

    /** Messages at which the batch being built leaves. */
    int target() {
        return target;
    }

    /**
     * Whether a batch of {@code bytes} leaves now whatever its count: with {@code "auto"}, at {@link
     * #AUTO_MAX_BATCH_BYTES}, so large messages do not make frames of many megabytes: past a few hundred
     * kilobytes a bigger frame only delays the receiver's first item and holds more memory per link.
     */
    boolean fullAt(int bytes) {
        return adaptive && bytes >= AUTO_MAX_BATCH_BYTES;
    }

    /** The most messages a batch ever holds. */
    int max() {
        return fixed;
    }

    /** A batch of {@code messages} is about to be sent at {@code nowNanos}. */
    void sending(int messages, long nowNanos) {
        sending(messages, nowNanos, false);
    }

    /**
     * A batch of {@code messages} is about to be sent at {@code nowNanos}; {@code keptBusy}: the sender's input
     * never ran dry while it filled. Such a batch was filled at the sender's own pace, not the producer's: the
     * stream comes at least that fast, so a full one doubles the next target, up to the cap (a full stream's
     * batches then reach the largest size, as a fixed one would, where the sender's pace alone would stop at
     * what it serializes within the flush delay). A stream with gaps shows its rate in the others.
     */
    void sending(int messages, long nowNanos, boolean keptBusy) {
        if (!adaptive || lastSendEndNanos < 0 || messages <= 0) {
            return;
        }
        long sample = Math.max(0, nowNanos - lastSendEndNanos) / messages;
        nanosPerMessage =
                nanosPerMessage >= Long.MAX_VALUE / 4 ? sample : nanosPerMessage + (sample - nanosPerMessage) / 2;
        long fits = nanosPerMessage == 0 ? fixed : flushDelayNanos / nanosPerMessage;
        if (keptBusy && messages >= target) {
            fits = Math.max(fits, 2L * target);
        }
        target = (int) Math.max(1, Math.min(fixed, fits));
    }

    /** That batch was handed to the link at {@code nowNanos} (after any wait for credit). */
    void sent(long nowNanos) {
        lastSendEndNanos = nowNanos;
    }

    @Override
    public String toString() {
        return adaptive ? "auto, now " + target + " (" + nanosPerMessage + " ns per message)" : "fixed " + fixed;
    }
}
