package org.fastflowj.stream;

/**
 * One value per key, read and written for the key of the record (or timer) being processed.
 *
 * @param <V> the value's type
 */
public interface ValueState<V> {
    /** The current key's value, or null. */
    V value();

    void update(V value);

    void clear();
}
