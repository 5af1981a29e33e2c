package org.fastflowj.stream.internal;

/**
 * A control item that travels with the records, as watermarks do, and that user functions never see.
 * {@link #TICK}: the wall clock moved on (sources send one every {@link #TICK_MILLIS} ms while they run),
 * so processing-time timers and windows fire and idle inputs are noticed without a timer thread per
 * operator. {@link #IDLE}: the channel that sent it has no records for now and must not hold the
 * watermark back; its next record or watermark makes it count again. Compare by {@link #kind}, not by
 * identity: a signal that crossed a process boundary is a copy.
 */
public final class Signal {
    public static final long TICK_MILLIS = 10;
    static final Signal TICK = new Signal(0);
    static final Signal IDLE = new Signal(1);

    final int kind;

    private Signal(int kind) {
        this.kind = kind;
    }

    boolean isTick() {
        return kind == 0;
    }

    @Override
    public String toString() {
        return isTick() ? "tick" : "idle";
    }
}
