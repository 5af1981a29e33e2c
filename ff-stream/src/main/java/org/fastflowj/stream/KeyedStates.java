package org.fastflowj.stream;

/**
 * Creates a keyed operator's state, in {@link KeyedProcessFunction#open}. Each state holds one value,
 * list or map per key; the process function reads and writes the current key's.
 */
public interface KeyedStates {
    <V> ValueState<V> value(String name);

    <V> ListState<V> list(String name);

    <K, V> MapState<K, V> map(String name);
}
