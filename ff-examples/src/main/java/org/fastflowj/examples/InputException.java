package org.fastflowj.examples;

/**
 * Bad user input found while an application runs (a malformed record, an unreadable file): its message
 * names the file, and the line when there is one, as {@code file:line: what is wrong}. The applications
 * report it on one line and exit 2, like a bad command line.
 */
public final class InputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InputException(String message) {
        super(message);
    }

    public InputException(String message, Throwable cause) {
        super(message, cause);
    }
}
