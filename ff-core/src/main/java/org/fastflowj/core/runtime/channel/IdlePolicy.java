package org.fastflowj.core.runtime.channel;

import org.fastflowj.core.WaitStrategy;

/**
 * A {@link WaitStrategy} as numbers: how many failed checks a waiting thread spins, then yields, before
 * it parks; the longest park (a safety net: parked threads are woken by the other side); and how many
 * queued items are worth waking a parked consumer for.
 *
 * <p>Why these shapes (a 4-thread farm on 2 cores is the case to watch): when node threads outnumber cores,
 * every spin or yield of an idle thread takes the core from one that has work, so BACKOFF then parks
 * after a short spin and the other side wakes it by the batch (a producer once half a channel has
 * drained, a consumer once a quarter of a channel is queued or its producer stops); a consumer waiting
 * on long channels spins least ({@link #forLongInputs}). Waits on short (on-demand) channels end within
 * microseconds, too soon for a park to pay off: they spin and yield.
 *
 * @param spinRounds checks with {@link Thread#onSpinWait()} in between
 * @param yieldRounds further checks with {@link Thread#yield()} in between
 * @param parkNanos time-out of the first park of a wait; each further one doubles, up to {@link
 *     #MAX_PARK_NANOS} (see {@link IdleStrategy})
 * @param wakeBatch a producer wakes a parked consumer only once this many items wait (capped at a quarter
 *     of the channel), or when it is about to wait itself; the consumer's park time-out bounds the delay
 * @param hysteresis a producer that found its channel full waits until half of it drained even while
 *     spinning (not only before a park): with spare cores, refilling slot by slot keeps the producer
 *     and the consumer a full channel apart, which is fastest; without, it would keep the producer awake
 */
public record IdlePolicy(int spinRounds, int yieldRounds, long parkNanos, int wakeBatch, boolean hysteresis) {
    /** Channels this short are on-demand slots: their waits are short and use {@link #forShortChannels()}. */
    public static final int SHORT_CHANNEL = 64;

    /**
     * The longest park: an idle thread wakes about 16 times a second, so an idle graph costs little CPU
     * (ff-bench's {@code IdleCost} shows how little). Producers wake parked threads, so this
     * bounds only a wake-up missed by a waker that skipped its fence (see {@link Parker}).
     */
    static final long MAX_PARK_NANOS = 64_000_000;

    private static final long SAFETY_PARK_NANOS = 1_000_000;
    private static final int BATCH = 1024;

    public static IdlePolicy of(WaitStrategy strategy, boolean oversubscribed) {
        return switch (strategy) {
            case BUSY_SPIN -> new IdlePolicy(Integer.MAX_VALUE, 0, 0, 1, false);
            case BACKOFF -> oversubscribed
                    ? new IdlePolicy(16, 0, SAFETY_PARK_NANOS, BATCH, true)
                    : new IdlePolicy(64, 256, SAFETY_PARK_NANOS, BATCH, false);
                // Immediate wake-ups: least latency and CPU while idle, at the price of a wake per item.
            case BLOCKING -> new IdlePolicy(32, 0, 5 * SAFETY_PARK_NANOS, 1, oversubscribed);
        };
    }

    /**
     * Spins of a wait for input on long channels when threads outnumber the cores and wake-ups are
     * batched (BACKOFF). A consumer faster than its producers (a farm's collector) drains the batch it was
     * woken for, then meets each new item within a few spins: with as many spins as the other waits it
     * would catch item after item and hardly ever park, holding a core its producers need. With these
     * few it parks once drained and is woken for the next batch, and its producers keep the core (ff-bench's
     * {@code FarmSpeedup} at fine grain is the case to watch).
     */
    public static final int BATCHED_INPUT_SPINS = 4;

    /** The policy for waits on short channels: BACKOFF spins and yields there instead of parking. */
    public IdlePolicy forShortChannels() {
        return wakeBatch > 1 ? new IdlePolicy(64, 256, parkNanos, wakeBatch, false) : this;
    }

    /**
     * The policy for a node's waits for input on long channels, unless a receiving bridge feeds it: see
     * {@link #BATCHED_INPUT_SPINS}.
     */
    public IdlePolicy forLongInputs() {
        return hysteresis && wakeBatch > 1 ? new IdlePolicy(BATCHED_INPUT_SPINS, 0, parkNanos, wakeBatch, true) : this;
    }
}
