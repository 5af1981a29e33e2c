package org.fastflowj.stream;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Collects a stream's records in a list, to be read after the job's run ({@link #items()}): the run's
 * end makes the list's contents visible to the thread that ran it.
 *
 * @param <T> the records' type
 */
public final class CollectSink<T> implements Sink<T> {
    private final List<T> items = new ArrayList<>();

    CollectSink() {}

    @Override
    public String name() {
        return "collect";
    }

    @Override
    public void open() {
        items.clear();
    }

    @Override
    public void write(T item) {
        items.add(item);
    }

    @Override
    public boolean exactlyOnce() {
        return true;
    }

    /** How many records came before the barrier. */
    @Override
    public void snapshot(long checkpointId, DataOutput out) throws IOException {
        out.writeInt(items.size());
    }

    /**
     * Drops what came after the checkpoint: the restart gives it again. In a run resumed from the store
     * in a new sink, which starts empty, the list holds what came after the checkpoint.
     */
    @Override
    public void restore(DataInput in) throws IOException {
        int size = in.readInt();
        items.subList(Math.min(size, items.size()), items.size()).clear();
    }

    /** The records, in the order the sink received them. */
    public List<T> items() {
        return Collections.unmodifiableList(items);
    }
}
