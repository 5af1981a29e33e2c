package org.fastflowj.stream;

/**
 * A window's result for one key: the window is {@code [start, end)} in event time (for a count window,
 * the ordinals of the key's records it holds).
 *
 * @param start the window's first time, inclusive
 * @param end the window's end, exclusive
 * @param key the key
 * @param value the aggregate's result
 * @param <K> the key's type
 * @param <V> the result's type
 */
public record WindowResult<K, V>(long start, long end, K key, V value) {}
