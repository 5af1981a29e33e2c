package org.fastflowj.stream;

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

    /** The records, in the order the sink received them. */
    public List<T> items() {
        return Collections.unmodifiableList(items);
    }
}
