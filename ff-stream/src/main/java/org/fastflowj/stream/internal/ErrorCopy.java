package org.fastflowj.stream.internal;

/**
 * The error of a dead letter written in another group than the operator that failed: the original's
 * class name, message and stack trace, printed as the original is ({@code class: message}).
 */
public final class ErrorCopy extends Exception {
    private static final long serialVersionUID = 1L;

    private final String className;

    ErrorCopy(String className, String message, StackTraceElement[] frames) {
        super(message, null, false, true);
        this.className = className;
        setStackTrace(frames);
    }

    /** The class of the error this copies. */
    public String className() {
        return className;
    }

    @Override
    public String toString() {
        String message = getLocalizedMessage();
        return message != null ? className + ": " + message : className;
    }
}
