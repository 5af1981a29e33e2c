package org.fastflowj.patterns;

/**
 * A user function of a {@link PoolEvolution} threw or broke its contract: {@link #function()} names which
 * one ({@code selection}, {@code evolution}, {@code filter} or {@code termination}), {@link #round()} the
 * number of rounds completed before it; the cause is what it threw ({@code null} for a broken contract,
 * such as a {@code null} result).
 */
public class PoolEvolutionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String function;
    private final long round;

    PoolEvolutionException(String function, long round, String detail, Throwable cause) {
        super(
                "PoolEvolution: " + function + " " + detail + " in round " + round
                        + (cause != null ? ": " + cause : ""),
                cause);
        this.function = function;
        this.round = round;
    }

    /** The user function that failed: {@code selection}, {@code evolution}, {@code filter} or {@code termination}. */
    public String function() {
        return function;
    }

    /** The rounds the run had completed when the function failed (0 during the first round). */
    public long round() {
        return round;
    }
}
