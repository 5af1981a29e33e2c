package org.fastflowj.stream.internal;

import org.fastflowj.stream.DeadLetter;

/** What an operator does when its user function throws on a record: fail the job, skip, or dead-letter. */
public final class ErrorHandler {
    public static final ErrorHandler FAIL = new ErrorHandler(false, null);
    public static final ErrorHandler SKIP = new ErrorHandler(true, null);

    private final boolean skip;
    private final SideSink<DeadLetter> deadLetters;

    private ErrorHandler(boolean skip, SideSink<DeadLetter> deadLetters) {
        this.skip = skip;
        this.deadLetters = deadLetters;
    }

    public static ErrorHandler deadLetter(SideSink<DeadLetter> deadLetters) {
        return new ErrorHandler(false, deadLetters);
    }

    public SideSink<DeadLetter> deadLetters() {
        return deadLetters;
    }

    void onFailure(OperatorInfo info, Object value, Exception error) throws Exception {
        if (deadLetters != null) {
            info.counters().deadLettered().incrementAndGet();
            deadLetters.write(new DeadLetter(info.name(), info.instance(), value, error));
        } else if (skip) {
            info.counters().skipped().incrementAndGet();
        } else {
            throw new RecordFailure(info.qualifiedName(), RecordFailure.describe(value), error);
        }
    }

    /** A failure outside any one record (a window firing at a watermark): always fails the job. */
    static RecordFailure atWatermark(OperatorInfo info, long watermark, Exception error) {
        return new RecordFailure(info.qualifiedName(), "watermark " + watermark, error);
    }
}
