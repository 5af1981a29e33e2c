package org.fastflowj.stream;

import java.util.List;

/**
 * A list per key, for the key being processed.
 *
 * @param <V> the elements' type
 */
public interface ListState<V> {
    void add(V value);

    /** The current key's elements (empty if none), a read-only view. */
    List<V> get();

    void clear();
}
