package org.fastflowj.stream;

import java.util.Map;

/**
 * A map per key, for the key being processed.
 *
 * @param <K> the map's keys
 * @param <V> the map's values
 */
public interface MapState<K, V> {
    V get(K key);

    void put(K key, V value);

    void remove(K key);

    boolean contains(K key);

    /** The current key's map (empty if none), a read-only view. */
    Map<K, V> entries();

    void clear();
}
