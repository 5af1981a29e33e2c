package org.fastflowj.core.spi;

/**
 * Carries a checked exception out of a place that cannot declare it (a combiner's seam, where the first
 * node's {@code sendOut} runs the second node's {@code svc}); the executor reports the cause, not this.
 */
public final class CheckedSvcException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CheckedSvcException(Exception cause) {
        super(cause.getMessage(), cause);
    }
}
