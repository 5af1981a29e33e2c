package org.fastflowj.stream.internal;

/**
 * A record on a channel between two stream nodes: the user's value and its event time. One small
 * carrier is allocated per record that crosses a channel; inside a fused chain the operators hand
 * value and time to each other directly.
 */
public final class Rec {
    /** The time of a record that has none (no {@code withTimestamps} upstream). */
    public static final long NO_TIMESTAMP = Long.MIN_VALUE;

    final Object value;
    final long timestamp;

    Rec(Object value, long timestamp) {
        this.value = value;
        this.timestamp = timestamp;
    }

    @Override
    public String toString() {
        return "Rec(" + value + " @" + timestamp + ")";
    }
}
