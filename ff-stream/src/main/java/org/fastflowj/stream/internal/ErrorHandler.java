package org.fastflowj.stream.internal;

import org.fastflowj.core.NodeCounter;
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

    /** The counter of an instance this policy counts on, or null for fail. */
    NodeCounter counter(OperatorInfo.Counters counters) {
        return deadLetters != null ? counters.deadLettered() : skip ? counters.skipped() : null;
    }

    /** A dead letter goes down the operator's stream to {@code out}, on its way to its side sink. */
    void onFailure(Output out, OperatorInfo info, Object value, Exception error) {
        if (deadLetters != null) {
            info.counters().deadLettered().increment();
            out.emitSide(deadLetters.record(new DeadLetter(info.name(), info.instance(), value, error)));
        } else if (skip) {
            info.counters().skipped().increment();
        } else {
            throw new RecordFailure(info.qualifiedName(), RecordFailure.describe(value), error);
        }
    }

    /** A failure outside any one record (a window firing at a watermark): always fails the job. */
    static RecordFailure atWatermark(OperatorInfo info, long watermark, Exception error) {
        return new RecordFailure(info.qualifiedName(), "watermark " + watermark, error);
    }
}
