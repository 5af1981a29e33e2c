package org.fastflowj.stream;

/**
 * A stream job failed. When a user function failed on a record, {@link #operator()} and
 * {@link #record()} name them; otherwise they are null and the cause tells what failed.
 */
public final class JobFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String operator;
    private final String record;

    JobFailedException(String message, String operator, String record, Throwable cause) {
        super(message, cause);
        this.operator = operator;
        this.record = record;
    }

    /** The failing operator as messages show it ({@code 'parse'}, or {@code 'parse' (instance 1 of 4)}). */
    public String operator() {
        return operator;
    }

    /** The record it failed on ({@code record '...'}), or the watermark it failed at. */
    public String record() {
        return record;
    }
}
