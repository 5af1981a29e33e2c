package org.fastflowj.patterns;

/**
 * A loop body threw: the message says where (index or chunk, and worker), the cause is what the body
 * threw. The {@link ParallelFor} that ran it stays usable.
 */
public final class ParallelForException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ParallelForException(String message, Throwable cause) {
        super(message, cause);
    }
}
