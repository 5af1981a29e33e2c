package org.fastflowj.stream.internal;

import org.fastflowj.stream.Sink;

/**
 * A sink fed from the side of operators (late records, dead letters). Operators send its records down
 * their stream as {@link SideRecord}s, and the stream's sink node writes them ({@link SinkNode}), so
 * they pass checkpoint barriers in order with the stream's records. A side sink reached by the streams
 * of one sink node only rolls back with that node; one fed by several, or written directly before a
 * block dropped into a stream (the block takes values only) or by a block's error policy, is given
 * its records at least once.
 * Writes are serialised here: those writers may run on several threads.
 */
public final class SideSink<T> {
    private final Sink<T> sink;
    private final int index;
    /** Sink nodes this side sink's records reach, counted by each compilation. */
    private int sinkNodes;
    /** Some of its records are written before a block, by the node that hands values to it. */
    private boolean writtenBeforeBlock;
    /** A block's error policy writes its dead letters here directly. */
    private boolean writtenByBlock;
    /** A writer of this side sink started in this process (a process runs its group's only). */
    private volatile boolean started;

    /** @param index its position among its job's side sinks, which {@link SideRecord}s carry */
    public SideSink(Sink<T> sink, int index) {
        this.sink = sink;
        this.index = index;
    }

    public Sink<T> sink() {
        return sink;
    }

    int index() {
        return index;
    }

    /** {@code value} on its way to this side sink. */
    SideRecord record(Object value) {
        return new SideRecord(index, value);
    }

    void clearRoutes() {
        sinkNodes = 0;
        writtenBeforeBlock = false;
    }

    void reachesSinkNode() {
        sinkNodes++;
    }

    void writtenBeforeBlock() {
        writtenBeforeBlock = true;
    }

    public void writtenByBlock() {
        writtenByBlock = true;
    }

    /** Whether one sink node writes every record of this side sink, and so snapshots and restores it. */
    boolean oneWriter() {
        return sinkNodes == 1 && !writtenBeforeBlock && !writtenByBlock;
    }

    /** Whether it returns to a checkpoint's output on a restart; else why not. */
    public String atLeastOnceBecause() {
        if (!sink.exactlyOnce()) {
            return "does not roll back to a checkpoint";
        }
        if (writtenBeforeBlock) {
            return "takes records of operators before a block dropped into a stream (written directly)";
        }
        if (writtenByBlock) {
            return "takes the dead letters of a block dropped into a stream (written directly)";
        }
        if (sinkNodes > 1) {
            return "takes records of the streams of " + sinkNodes + " sinks";
        }
        return null;
    }

    void started() {
        started = true;
    }

    public boolean startedHere() {
        return started;
    }

    public synchronized void write(T item) throws Exception {
        started = true;
        sink.write(item);
    }
}
