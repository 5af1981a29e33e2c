package org.fastflowj.stream.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fastflowj.stream.KeyedStates;
import org.fastflowj.stream.ListState;
import org.fastflowj.stream.MapState;
import org.fastflowj.stream.ValueState;

/** The keyed state of one operator instance, in hash maps by key; the handles read the current key's. */
final class KeyedStateStore implements KeyedStates {
    private final Set<String> names = new HashSet<>();
    Object currentKey;

    private void claim(String name) {
        if (!names.add(name)) {
            throw new IllegalArgumentException("keyed state '" + name + "' is created twice");
        }
    }

    @Override
    public <V> ValueState<V> value(String name) {
        claim(name);
        Map<Object, V> values = new HashMap<>();
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
        claim(name);
        Map<Object, List<V>> lists = new HashMap<>();
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
        claim(name);
        Map<Object, Map<K, V>> maps = new HashMap<>();
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
