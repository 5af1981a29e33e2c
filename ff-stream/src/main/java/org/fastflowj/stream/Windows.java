package org.fastflowj.stream;

import java.time.Duration;
import java.util.Objects;

/**
 * Window assigners for a keyed stream or {@link DataStream#windowAll}. Time windows are in event time
 * (milliseconds) and need {@code withTimestamps} upstream; a window {@code [start, end)} fires once the
 * watermark reaches {@code end - 1}, as in Flink. Windows are aligned to time 0.
 */
public final class Windows {
    enum Kind {
        SLIDING,
        SESSION,
        COUNT
    }

    final Kind kind;
    final long size;
    final long slide;
    final boolean processingTime;

    /**
     * Whether a window's records are aggregated in two stages: event-time tumbling and sliding windows,
     * whose frames the reading instances can pre-aggregate before the shuffle.
     */
    boolean aggregatesInTwoStages() {
        return kind == Kind.SLIDING && !processingTime;
    }

    private Windows(Kind kind, long size, long slide) {
        this(kind, size, slide, false);
    }

    private Windows(Kind kind, long size, long slide, boolean processingTime) {
        this.kind = kind;
        this.size = size;
        this.slide = slide;
        this.processingTime = processingTime;
    }

    /**
     * The same windows on the wall clock: a record belongs to the windows of the time it reaches the
     * window operator, and a window fires once the clock passes its end (checked about every 10 ms while
     * the sources run; the open windows fire when the stream ends). No {@code withTimestamps} needed; no
     * record is ever late.
     */
    public Windows onProcessingTime() {
        if (kind == Kind.COUNT) {
            throw new IllegalArgumentException(this + ".onProcessingTime(): count windows take no time");
        }
        return new Windows(kind, size, slide, true);
    }

    /** Back-to-back windows of {@code size}. */
    public static Windows tumbling(Duration size) {
        long millis = positive("tumbling", "size", size);
        return new Windows(Kind.SLIDING, millis, millis);
    }

    /** Windows of {@code size} starting every {@code slide} (a record is in size / slide of them). */
    public static Windows sliding(Duration size, Duration slide) {
        long sizeMillis = positive("sliding", "size", size);
        long slideMillis = positive("sliding", "slide", slide);
        if (slideMillis > sizeMillis) {
            throw new IllegalArgumentException(
                    "sliding(" + size + ", " + slide + "): the slide is longer than the size");
        }
        return new Windows(Kind.SLIDING, sizeMillis, slideMillis);
    }

    /** A key's session: records less than {@code gap} apart. */
    public static Windows session(Duration gap) {
        return new Windows(Kind.SESSION, positive("session", "gap", gap), 0);
    }

    /** Every {@code n} records of a key (no time needed). */
    public static Windows count(long n) {
        if (n <= 0) {
            throw new IllegalArgumentException("count(" + n + "): n must be positive");
        }
        return new Windows(Kind.COUNT, n, n);
    }

    private static long positive(String assigner, String what, Duration d) {
        long millis = Objects.requireNonNull(d, what).toMillis();
        if (millis <= 0) {
            throw new IllegalArgumentException(assigner + ": the " + what + " must be at least 1 ms, not " + d);
        }
        return millis;
    }

    /** Whether the windows need the records' event time. */
    boolean needsTime() {
        return kind != Kind.COUNT && !processingTime;
    }

    @Override
    public String toString() {
        return processingTime ? eventTimeName() + ".onProcessingTime()" : eventTimeName();
    }

    private String eventTimeName() {
        return switch (kind) {
            case SLIDING -> size == slide ? "tumbling(" + size + "ms)" : "sliding(" + size + "ms," + slide + "ms)";
            case SESSION -> "session(" + size + "ms)";
            case COUNT -> "count(" + size + ")";
        };
    }
}
