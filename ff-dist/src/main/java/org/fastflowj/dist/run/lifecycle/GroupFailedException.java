package org.fastflowj.dist.run.lifecycle;

/** Another group of the application failed; the message names that group and what happened there. */
public final class GroupFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private static final String SEPARATOR = " failed: ";

    private final String origin;
    private final String reason;

    public GroupFailedException(String origin, String reason) {
        super(format(origin, reason));
        this.origin = origin;
        this.reason = reason;
    }

    /** The group where the failure started. */
    public String origin() {
        return origin;
    }

    /** What happened there. */
    public String reason() {
        return reason;
    }

    static String format(String origin, String reason) {
        return "group " + origin + SEPARATOR + reason;
    }
}
