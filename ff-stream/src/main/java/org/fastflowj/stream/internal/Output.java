package org.fastflowj.stream.internal;

/** Where an operator sends its results: records with their time, and watermarks. */
public interface Output {
    void emit(Object value, long timestamp);

    void emitWatermark(long time);

    /** Passes a {@link Signal} on. */
    void emitSignal(Signal signal);
}
