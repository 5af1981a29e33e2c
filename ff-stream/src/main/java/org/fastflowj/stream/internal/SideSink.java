package org.fastflowj.stream.internal;

import org.fastflowj.stream.Sink;

/**
 * A sink fed from the side of operators (late records, dead letters), by any of their instances'
 * threads: writes are serialised here. These records are the rare ones, so the lock stays off the
 * records' main path.
 */
public final class SideSink<T> {
    private final Sink<T> sink;
    /** An operator instance that writes here started in this process (a process runs its group's only). */
    private volatile boolean started;

    public SideSink(Sink<T> sink) {
        this.sink = sink;
    }

    public Sink<T> sink() {
        return sink;
    }

    void started() {
        started = true;
    }

    public boolean startedHere() {
        return started;
    }

    public synchronized void write(T item) throws Exception {
        sink.write(item);
    }
}
