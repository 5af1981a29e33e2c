package org.fastflowj.core.checkpoint;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * How often a failed run is started again from its last completed checkpoint, as Flink's restart
 * strategies: never, a fixed number of times, or as long as failures stay under a rate. Past it the run
 * fails with the failure that ended it.
 */
public final class RestartStrategy {
    private static final RestartStrategy NONE = new RestartStrategy(0, null, Duration.ZERO, "none");

    /** For {@link #fixedDelay}: the attempts; for {@link #failureRate}: failures allowed in the window. */
    private final int failures;
    /** null: failures count over the whole run. */
    private final Duration window;

    private final Duration delay;
    private final String description;

    private RestartStrategy(int failures, Duration window, Duration delay, String description) {
        this.failures = failures;
        this.window = window;
        this.delay = delay;
        this.description = description;
    }

    /** A failure ends the run (the default). */
    public static RestartStrategy none() {
        return NONE;
    }

    /** Up to {@code attempts} restarts in the whole run, each {@code delay} after its failure. */
    public static RestartStrategy fixedDelay(int attempts, Duration delay) {
        if (attempts < 0) {
            throw new IllegalArgumentException("fixedDelay: attempts must be >= 0, got " + attempts);
        }
        return new RestartStrategy(
                attempts, null, checkDelay(delay), "fixedDelay(" + attempts + " attempts, " + delay + ")");
    }

    /** Restarts as long as at most {@code maxFailures} failures fall within any {@code window}. */
    public static RestartStrategy failureRate(int maxFailures, Duration window, Duration delay) {
        if (maxFailures < 1) {
            throw new IllegalArgumentException("failureRate: maxFailures must be >= 1, got " + maxFailures);
        }
        Objects.requireNonNull(window, "window");
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("failureRate: the window must be positive, got " + window);
        }
        return new RestartStrategy(
                maxFailures,
                window,
                checkDelay(delay),
                "failureRate(" + maxFailures + " per " + window + ", delay " + delay + ")");
    }

    private static Duration checkDelay(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("a restart delay cannot be negative, got " + delay);
        }
        return delay;
    }

    /** The wait between a failure and the restart. */
    public Duration delay() {
        return delay;
    }

    /** A run's count of its failures against this strategy; one per run, on one thread. */
    public Attempts attempts() {
        return new Attempts();
    }

    @Override
    public String toString() {
        return description;
    }

    /** The failures of one run so far. */
    public final class Attempts {
        private final ArrayDeque<Long> failureNanos = new ArrayDeque<>();
        private int restarts;

        private Attempts() {}

        /** Records a failure at {@code nowNanos}; true if the strategy restarts the run after it. */
        public boolean restartAfterFailure(long nowNanos) {
            failureNanos.addLast(nowNanos);
            if (window != null) {
                while (!failureNanos.isEmpty() && nowNanos - failureNanos.peekFirst() > window.toNanos()) {
                    failureNanos.removeFirst();
                }
                if (failureNanos.size() > failures) {
                    return false;
                }
            } else if (restarts >= failures) {
                return false;
            }
            restarts++;
            return true;
        }

        /** Restarts granted so far. */
        public int restarts() {
            return restarts;
        }

        @Override
        public String toString() {
            return restarts + " restart(s) under " + description;
        }
    }
}
