package org.fastflowj.patterns;

/**
 * A user function of a {@link DivideAndConquer} threw or broke its contract: {@link #function()} names
 * which one ({@code divide}, {@code combine}, {@code solve} or {@code isBase}), the cause is what it threw.
 */
public class DivideAndConquerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String function;

    public DivideAndConquerException(String function, Throwable cause) {
        super("DivideAndConquer: " + function + " failed: " + cause, cause);
        this.function = function;
    }

    /** The user function that failed: {@code divide}, {@code combine}, {@code solve} or {@code isBase}. */
    public String function() {
        return function;
    }
}
