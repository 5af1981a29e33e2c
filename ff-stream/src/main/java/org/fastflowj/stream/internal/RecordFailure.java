package org.fastflowj.stream.internal;

/**
 * A user function failed on a record under the fail policy: carries the operator and the record so that
 * the job's failure names them.
 */
public final class RecordFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private static final int MAX_RECORD_CHARS = 200;

    private final String operator;
    private final String record;

    public RecordFailure(String operator, String record, Throwable cause) {
        super("operator " + operator + " failed on " + record + ": " + cause, cause);
        this.operator = operator;
        this.record = record;
    }

    public String operator() {
        return operator;
    }

    public String record() {
        return record;
    }

    /** A record as a failure message shows it: its text, cut to a readable length. */
    public static String describe(Object value) {
        String text = String.valueOf(value);
        return "record '" + (text.length() > MAX_RECORD_CHARS ? text.substring(0, MAX_RECORD_CHARS) + "..." : text)
                + "'";
    }
}
