package org.fastflowj.dist.serial;

import java.util.Arrays;

/**
 * A map from {@code long} keys to non-null values, open addressing with linear probing: what the codec's
 * parameter caches look identities up in once per parameter of every task, without boxing a key.
 * Removal shifts the entries after the removed one back, so no tombstones pile up.
 *
 * <p>Threading: one thread (the codec's).
 */
final class LongTable<V> {
    private static final int INITIAL_CAPACITY = 64;

    private long[] keys = new long[INITIAL_CAPACITY];
    private Object[] values = new Object[INITIAL_CAPACITY];
    private int size;

    int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    V get(long key) {
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            Object value = values[i];
            if (value == null) {
                return null;
            }
            if (keys[i] == key) {
                return (V) value;
            }
        }
    }

    /** Maps {@code key} to {@code value}; returns the value it replaced, or null. */
    @SuppressWarnings("unchecked")
    V put(long key, V value) {
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            Object old = values[i];
            if (old == null) {
                keys[i] = key;
                values[i] = value;
                size++;
                return null;
            }
            if (keys[i] == key) {
                values[i] = value;
                return (V) old;
            }
        }
    }

    /** Removes {@code key}; returns its value, or null if it had none. */
    @SuppressWarnings("unchecked")
    V remove(long key) {
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (values[i] != null && keys[i] != key) {
            i = (i + 1) & mask;
        }
        Object removed = values[i];
        if (removed == null) {
            return null;
        }
        // The hole at i: shift back into it each later entry of the run whose home slot is not in (i, j],
        // which leaves the hole at that entry's old place, until the run ends.
        for (int j = (i + 1) & mask; values[j] != null; j = (j + 1) & mask) {
            int home = slot(keys[j], mask);
            boolean staysPut = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (!staysPut) {
                keys[i] = keys[j];
                values[i] = values[j];
                i = j;
            }
        }
        values[i] = null;
        size--;
        return (V) removed;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Object[oldValues.length * 2];
        int mask = keys.length - 1;
        for (int k = 0; k < oldKeys.length; k++) {
            if (oldValues[k] != null) {
                int i = slot(oldKeys[k], mask);
                while (values[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[k];
                values[i] = oldValues[k];
            }
        }
    }

    void clear() {
        Arrays.fill(values, null);
        size = 0;
    }

    /** Identities come in sequence: mixing spreads neighbours over the table. */
    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
