package org.fastflowj.stream;

import java.time.Duration;
import java.util.Objects;

/**
 * How a stream's watermarks follow its event times. With a bounded disorder {@code d}, the watermark is
 * {@code maxTimestampSoFar - d - 1} (Flink's bounded out-of-orderness): a record at most {@code d} older
 * than the newest one seen is never late. Times are milliseconds.
 */
public final class Watermarks {
    final long disorderMillis;

    private Watermarks(long disorderMillis) {
        this.disorderMillis = disorderMillis;
    }

    /** Records may arrive up to {@code disorder} behind the newest one. */
    public static Watermarks boundedDisorder(Duration disorder) {
        long millis = Objects.requireNonNull(disorder, "disorder").toMillis();
        if (millis < 0) {
            throw new IllegalArgumentException("boundedDisorder(" + disorder + "): the disorder cannot be negative");
        }
        return new Watermarks(millis);
    }

    /** Event times never decrease. */
    public static Watermarks ascending() {
        return new Watermarks(0);
    }

    @Override
    public String toString() {
        return disorderMillis == 0 ? "ascending" : "boundedDisorder(" + disorderMillis + "ms)";
    }
}
