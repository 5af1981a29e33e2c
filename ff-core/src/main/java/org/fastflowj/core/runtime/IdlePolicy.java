package org.fastflowj.core.runtime;

import org.fastflowj.core.WaitStrategy;

/**
 * A {@link WaitStrategy} as numbers: how many failed checks a waiting thread spins, then yields, before
 * it parks, and the longest park (a safety net: parked threads are woken by the other side).
 *
 * @param spinRounds checks with {@link Thread#onSpinWait()} in between
 * @param yieldRounds further checks with {@link Thread#yield()} in between
 * @param parkNanos time-out of one park
 */
record IdlePolicy(int spinRounds, int yieldRounds, long parkNanos) {
    static IdlePolicy of(WaitStrategy strategy) {
        return switch (strategy) {
            case BUSY_SPIN -> new IdlePolicy(Integer.MAX_VALUE, 0, 0);
            // Yield rather than spin long: with more threads than cores a yield hands the core to a
            // thread that has work, where a spin would burn it.
            case BACKOFF -> new IdlePolicy(Integer.getInteger("ff.backoff.spins", 64),
                    Integer.getInteger("ff.backoff.yields", 256), Long.getLong("ff.backoff.parkNanos", 1_000_000));
            case BLOCKING -> new IdlePolicy(Integer.getInteger("ff.blocking.spins", 32),
                    Integer.getInteger("ff.blocking.yields", 0), Long.getLong("ff.blocking.parkNanos", 5_000_000));
        };
    }

    boolean parks() {
        return spinRounds != Integer.MAX_VALUE;
    }
}
