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
    final long idleMillis;

    private Watermarks(long disorderMillis, long idleMillis) {
        this.disorderMillis = disorderMillis;
        this.idleMillis = idleMillis;
    }

    /** Records may arrive up to {@code disorder} behind the newest one. */
    public static Watermarks boundedDisorder(Duration disorder) {
        long millis = Objects.requireNonNull(disorder, "disorder").toMillis();
        if (millis < 0) {
            throw new IllegalArgumentException("boundedDisorder(" + disorder + "): the disorder cannot be negative");
        }
        return new Watermarks(millis, 0);
    }

    /** Event times never decrease. */
    public static Watermarks ascending() {
        return new Watermarks(0, 0);
    }

    /**
     * These watermarks, and a stream instance that hands out no record for {@code timeout} (of wall
     * time) is idle: the operators after it stop waiting for its watermark until it has records again
     * (as Flink's {@code withIdleness}). A record it then sends may be late. Without it, a quiet
     * instance holds every window after it back.
     */
    public Watermarks withIdleness(Duration timeout) {
        long millis = Objects.requireNonNull(timeout, "timeout").toMillis();
        if (millis <= 0) {
            throw new IllegalArgumentException("withIdleness(" + timeout + "): the timeout must be at least 1 ms");
        }
        return new Watermarks(disorderMillis, millis);
    }

    @Override
    public String toString() {
        String marks = disorderMillis == 0 ? "ascending" : "boundedDisorder(" + disorderMillis + "ms)";
        return idleMillis == 0 ? marks : marks + ".withIdleness(" + idleMillis + "ms)";
    }
}
