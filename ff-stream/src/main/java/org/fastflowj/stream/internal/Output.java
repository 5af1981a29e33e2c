package org.fastflowj.stream.internal;

/** Where an operator sends its results: records with their time, watermarks, signals and side records. */
public interface Output {
    void emit(Object value, long timestamp);

    void emitWatermark(long time);

    /** Passes a {@link Signal} on. */
    void emitSignal(Signal signal);

    /** Passes a record for a side sink on, towards the stream's sink node. */
    void emitSide(SideRecord record);
}
