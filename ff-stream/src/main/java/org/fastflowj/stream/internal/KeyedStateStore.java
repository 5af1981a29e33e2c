package org.fastflowj.stream.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.fastflowj.stream.KeyedStates;
import org.fastflowj.stream.ListState;
import org.fastflowj.stream.MapState;
import org.fastflowj.stream.ValueState;

/** The keyed state of one operator instance, in hash maps by key; the handles read the current key's. */
final class KeyedStateStore implements KeyedStates {
    /** Each state's map of key to its value, by the state's name. */
    private final Map<String, Map<Object, ?>> byName = new HashMap<>();
    /** What a checkpoint held for states not created yet, by name: given to each when it is created. */
    private Map<String, Map<Object, ?>> restored = Map.of();

    Object currentKey;

    private <V> Map<Object, V> claim(String name) {
        if (byName.containsKey(name)) {
            throw new IllegalArgumentException("keyed state '" + name + "' is created twice");
        }
        Map<Object, V> values = new HashMap<>();
        fill(values, restored.get(name));
        byName.put(name, values);
        return values;
    }

    @SuppressWarnings("unchecked")
    private static <V> void fill(Map<Object, V> values, Map<Object, ?> from) {
        values.clear();
        if (from != null) {
            values.putAll((Map<Object, V>) from);
        }
    }

    /** Before the function's {@code open}, again on a restart: it creates its states anew. */
    void reopen() {
        byName.clear();
    }

    /** Every state's values, by the state's name, for a checkpoint. */
    Map<String, Map<Object, ?>> saveState() {
        return byName;
    }

    /** Takes back the values of a checkpoint: into the states created so far, and those created later. */
    void loadState(Map<String, Map<Object, ?>> state) {
        restored = state;
        for (Map.Entry<String, Map<Object, ?>> e : byName.entrySet()) {
            fill(e.getValue(), state.get(e.getKey()));
        }
    }

    @Override
    public <V> ValueState<V> value(String name) {
        Map<Object, V> values = claim(name);
        return new ValueState<>() {
            @Override
            public V value() {
                return values.get(currentKey);
            }

            @Override
            public void update(V value) {
                if (value == null) {
                    values.remove(currentKey);
                } else {
                    values.put(currentKey, value);
                }
            }

            @Override
            public void clear() {
                values.remove(currentKey);
            }
        };
    }

    @Override
    public <V> ListState<V> list(String name) {
        Map<Object, List<V>> lists = claim(name);
        return new ListState<>() {
            @Override
            public void add(V value) {
                lists.computeIfAbsent(currentKey, k -> new ArrayList<>()).add(value);
            }

            @Override
            public List<V> get() {
                List<V> list = lists.get(currentKey);
                return list == null ? List.of() : Collections.unmodifiableList(list);
            }

            @Override
            public void clear() {
                lists.remove(currentKey);
            }
        };
    }

    @Override
    public <K, V> MapState<K, V> map(String name) {
        Map<Object, Map<K, V>> maps = claim(name);
        return new MapState<>() {
            @Override
            public V get(K key) {
                Map<K, V> map = maps.get(currentKey);
                return map == null ? null : map.get(key);
            }

            @Override
            public void put(K key, V value) {
                maps.computeIfAbsent(currentKey, k -> new HashMap<>()).put(key, value);
            }

            @Override
            public void remove(K key) {
                Map<K, V> map = maps.get(currentKey);
                if (map != null) {
                    map.remove(key);
                    if (map.isEmpty()) {
                        maps.remove(currentKey);
                    }
                }
            }

            @Override
            public boolean contains(K key) {
                Map<K, V> map = maps.get(currentKey);
                return map != null && map.containsKey(key);
            }

            @Override
            public Map<K, V> entries() {
                Map<K, V> map = maps.get(currentKey);
                return map == null ? Map.of() : Collections.unmodifiableMap(map);
            }

            @Override
            public void clear() {
                maps.remove(currentKey);
            }
        };
    }
}
