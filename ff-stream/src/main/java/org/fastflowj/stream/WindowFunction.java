package org.fastflowj.stream;

import java.util.List;
import java.util.function.Consumer;

/**
 * Sees all of a window's records at once, when it fires: {@code [start, end)}, the key, the records (in
 * arrival order within each pane or session), and emits any number of results.
 *
 * @param <K> the key's type
 * @param <T> the records' type
 * @param <R> the results' type
 */
@FunctionalInterface
public interface WindowFunction<K, T, R> {
    void apply(K key, long start, long end, List<T> records, Consumer<R> out) throws Exception;
}
