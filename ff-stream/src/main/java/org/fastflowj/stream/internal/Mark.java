package org.fastflowj.stream.internal;

/**
 * A watermark travelling in the channels with the records, as EOS does: "no record with a time at or
 * below {@code time} follows on this channel". Stream nodes recognise it; user functions never see it.
 * {@link #END} (time {@code Long.MAX_VALUE}) is sent when a stream ends, so every open window and
 * timer fires before the EOS.
 */
public final class Mark {
    /** The watermark of an input that has ended. */
    public static final Mark END = new Mark(Long.MAX_VALUE);

    final long time;

    Mark(long time) {
        this.time = time;
    }

    static Mark of(long time) {
        return time == Long.MAX_VALUE ? END : new Mark(time);
    }

    @Override
    public String toString() {
        return "Mark(" + time + ")";
    }
}
