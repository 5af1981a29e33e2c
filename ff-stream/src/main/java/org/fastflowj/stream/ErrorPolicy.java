package org.fastflowj.stream;

import java.util.Objects;

/**
 * What an operator does when its user function throws on a record. {@link #fail()} is the default: the
 * job ends, and its {@link JobFailedException} names the operator and the record. {@link #skip()} drops
 * the record and counts it ({@link JobStats#skippedRecords()}); {@link #deadLetter(Sink)} sends a
 * {@link DeadLetter} to a sink and counts it. A failure while a window or timer fires at a watermark is
 * not any one record's: it always fails the job.
 */
public final class ErrorPolicy {
    private static final ErrorPolicy FAIL = new ErrorPolicy(false, null);
    private static final ErrorPolicy SKIP = new ErrorPolicy(true, null);

    final boolean skip;
    final Sink<? super DeadLetter> deadLetters;

    private ErrorPolicy(boolean skip, Sink<? super DeadLetter> deadLetters) {
        this.skip = skip;
        this.deadLetters = deadLetters;
    }

    public static ErrorPolicy fail() {
        return FAIL;
    }

    public static ErrorPolicy skip() {
        return SKIP;
    }

    public static ErrorPolicy deadLetter(Sink<? super DeadLetter> sink) {
        return new ErrorPolicy(false, Objects.requireNonNull(sink, "sink"));
    }
}
