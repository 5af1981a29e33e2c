package org.fastflowj.stream.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fastflowj.stream.KeyedStates;
import org.fastflowj.stream.ListState;
import org.fastflowj.stream.MapState;
import org.fastflowj.stream.ValueState;

/**
 * The keyed state of one operator instance, in hash maps by key; the handles read the current key's.
 *
 * <p>With incremental checkpoints on ({@link #trackChanges}), each state notes the keys whose value may
 * have changed since the last checkpoint, so that a checkpoint writes those keys only: a handle that
 * writes (update, add, put, remove, clear) notes its key, and so does one that hands out an object the
 * function could change in place (a value or map value of a class not known to be immutable, a key's
 * list or map), since such a change bypasses the handle. Off, the handles test one boolean and note
 * nothing.
 */
final class KeyedStateStore implements KeyedStates {
    /** Each state's map of key to its value, by the state's name. */
    private final Map<String, Map<Object, ?>> byName = new HashMap<>();
    /** Each state's keys noted since the last checkpoint, by the state's name; empty unless tracking. */
    private final Map<String, Set<Object>> changedByName = new LinkedHashMap<>();
    /** What a checkpoint held for states not created yet, by name: given to each when it is created. */
    private Map<String, Map<Object, ?>> restored = Map.of();
    /** Incremental checkpoints are on: the handles note the keys they change. */
    private boolean tracking;

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

    /** The set the state {@code name} notes its changed keys in (its table is made at the first). */
    private Set<Object> changes(String name) {
        Set<Object> changed = new HashSet<>();
        changedByName.put(name, changed);
        return changed;
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
        changedByName.clear();
    }

    /** Every state's values, by the state's name, for a checkpoint. */
    Map<String, Map<Object, ?>> saveState() {
        return byName;
    }

    /** Takes back the values of a checkpoint: into the states created so far, and those created later. */
    void loadState(Map<String, Map<Object, ?>> state) {
        restored = new HashMap<>(state);
        for (Map.Entry<String, Map<Object, ?>> e : byName.entrySet()) {
            fill(e.getValue(), state.get(e.getKey()));
        }
    }

    /** Notes changed keys from now on; the current state is what the changes apply to. */
    void trackChanges() {
        tracking = true;
        clearChanges();
    }

    void clearChanges() {
        for (Set<Object> changed : changedByName.values()) {
            changed.clear();
        }
    }

    /** How many keys are noted as changed, over all states. */
    int changedKeys() {
        int n = 0;
        for (Set<Object> changed : changedByName.values()) {
            n += changed.size();
        }
        return n;
    }

    /**
     * The noted keys with their current values, and forgets them: for each state with a noted key, its
     * name, its keys and their values (null: the key has none now), as {@code {String[] names, Object[][]
     * keys, Object[][] values}}.
     */
    Object[] saveChanges() {
        List<String> names = new ArrayList<>();
        List<Object[]> keys = new ArrayList<>();
        List<Object[]> values = new ArrayList<>();
        for (Map.Entry<String, Set<Object>> e : changedByName.entrySet()) {
            Set<Object> changed = e.getValue();
            if (changed.isEmpty()) {
                continue;
            }
            Map<Object, ?> table = byName.get(e.getKey());
            Object[] k = changed.toArray();
            Object[] v = new Object[k.length];
            for (int i = 0; i < k.length; i++) {
                v[i] = table.get(k[i]);
            }
            names.add(e.getKey());
            keys.add(k);
            values.add(v);
            changed.clear();
        }
        return new Object[] {
            names.toArray(new String[0]), keys.toArray(new Object[0][]), values.toArray(new Object[0][])
        };
    }

    /**
     * Applies what {@link #saveChanges} gave: to the states created so far, and to what states created
     * later are given.
     */
    @SuppressWarnings("unchecked")
    void loadChanges(Object[] changes) {
        String[] names = (String[]) changes[0];
        Object[][] keys = (Object[][]) changes[1];
        Object[][] values = (Object[][]) changes[2];
        if (!(restored instanceof HashMap)) {
            restored = new HashMap<>(restored);
        }
        for (int s = 0; s < names.length; s++) {
            Map<Object, Object> created = (Map<Object, Object>) byName.get(names[s]);
            Map<Object, Object> later = (Map<Object, Object>) restored.get(names[s]);
            if (later == null && created == null) {
                later = new HashMap<>();
                restored.put(names[s], later);
            }
            for (int i = 0; i < keys[s].length; i++) {
                apply(created, keys[s][i], values[s][i]);
                apply(later, keys[s][i], values[s][i]);
            }
        }
    }

    private static void apply(Map<Object, Object> table, Object key, Object value) {
        if (table == null) {
            return;
        }
        if (value == null) {
            table.remove(key);
        } else {
            table.put(key, value);
        }
    }

    /** Whether {@code value} cannot be changed in place: a key's state handed out as it is stays as it was. */
    private static boolean immutable(Object value) {
        return value instanceof String
                || value instanceof Long
                || value instanceof Integer
                || value instanceof Double
                || value instanceof Boolean
                || value instanceof Enum<?>
                || value instanceof Float
                || value instanceof Short
                || value instanceof Byte
                || value instanceof Character
                || value instanceof BigInteger
                || value instanceof BigDecimal;
    }

    @Override
    public <V> ValueState<V> value(String name) {
        Map<Object, V> values = claim(name);
        Set<Object> changed = changes(name);
        return new ValueState<>() {
            @Override
            public V value() {
                V value = values.get(currentKey);
                if (tracking && value != null && !immutable(value)) {
                    changed.add(currentKey);
                }
                return value;
            }

            @Override
            public void update(V value) {
                if (value == null) {
                    values.remove(currentKey);
                } else {
                    values.put(currentKey, value);
                }
                if (tracking) {
                    changed.add(currentKey);
                }
            }

            @Override
            public void clear() {
                values.remove(currentKey);
                if (tracking) {
                    changed.add(currentKey);
                }
            }
        };
    }

    @Override
    public <V> ListState<V> list(String name) {
        Map<Object, List<V>> lists = claim(name);
        Set<Object> changed = changes(name);
        return new ListState<>() {
            @Override
            public void add(V value) {
                lists.computeIfAbsent(currentKey, k -> new ArrayList<>()).add(value);
                if (tracking) {
                    changed.add(currentKey);
                }
            }

            @Override
            public List<V> get() {
                List<V> list = lists.get(currentKey);
                if (list == null) {
                    return List.of();
                }
                if (tracking) {
                    changed.add(currentKey);
                }
                return Collections.unmodifiableList(list);
            }

            @Override
            public void clear() {
                lists.remove(currentKey);
                if (tracking) {
                    changed.add(currentKey);
                }
            }
        };
    }

    @Override
    public <K, V> MapState<K, V> map(String name) {
        Map<Object, Map<K, V>> maps = claim(name);
        Set<Object> changed = changes(name);
        return new MapState<>() {
            @Override
            public V get(K key) {
                Map<K, V> map = maps.get(currentKey);
                V value = map == null ? null : map.get(key);
                if (tracking && value != null && !immutable(value)) {
                    changed.add(currentKey);
                }
                return value;
            }

            @Override
            public void put(K key, V value) {
                maps.computeIfAbsent(currentKey, k -> new HashMap<>()).put(key, value);
                if (tracking) {
                    changed.add(currentKey);
                }
            }

            @Override
            public void remove(K key) {
                Map<K, V> map = maps.get(currentKey);
                if (map != null) {
                    map.remove(key);
                    if (map.isEmpty()) {
                        maps.remove(currentKey);
                    }
                    if (tracking) {
                        changed.add(currentKey);
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
                if (map == null) {
                    return Map.of();
                }
                if (tracking) {
                    changed.add(currentKey);
                }
                return Collections.unmodifiableMap(map);
            }

            @Override
            public void clear() {
                maps.remove(currentKey);
                if (tracking) {
                    changed.add(currentKey);
                }
            }
        };
    }
}
