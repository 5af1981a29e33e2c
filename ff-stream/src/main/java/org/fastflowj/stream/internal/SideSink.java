package org.fastflowj.stream.internal;

import org.fastflowj.stream.Sink;

/**
 * A sink fed from the side of operators (late records, dead letters), by any of their instances'
 * threads: writes are serialised here. These records are the rare ones, so the lock stays off the
 * records' main path.
 */
public final class SideSink<T> {
    private final Sink<T> sink;

    public SideSink(Sink<T> sink) {
        this.sink = sink;
    }

    public Sink<T> sink() {
        return sink;
    }

    public synchronized void write(T item) throws Exception {
        sink.write(item);
    }
}
