package org.fastflowj.stream.internal;

import java.util.Arrays;

/**
 * A window's keys to their accumulators (or {@code long} sums), with an {@code int} per key (how many frames hold it, for the
 * running range of a sliding window), by open addressing with linear probing.
 *
 * <p>Why not a {@code HashMap}: a window fires all its keys at once and a slide walks two frames' keys,
 * and a node per entry (with, for the running range, a holder per key) costs a cache miss per key on each
 * pass and an object per key for every young collection to copy while the window holds it. Here an entry
 * is no object of its own: its key and value sit side by side in one array, its hash and count in
 * another, so a pass reads both in order and a probe touches two lines. A lookup compares stored hashes
 * before it touches a key, and one table's hash serves a lookup in another ({@link #find(Object, int)}),
 * so moving a frame's keys into the running range does not read the keys. A table a window is done with
 * can be cleared and used again.
 *
 * <p>{@code Long} and {@code Integer} keys (auction ids, user ids: the usual keys) are kept inline, as a
 * {@code long} beside a marker in the key's place: comparing, moving and firing such a key never reads the
 * boxed object the record brought (a cache miss per key on each pass over a large window, and an object
 * per key for a young collection to copy while the window holds it). {@link #keyAt} boxes it anew, an equal
 * key; a table may hold inline and object keys at once, and a {@code Long} never equals an {@code Integer}.
 *
 * <p>Keys may be null (a user's key function may give null where no router stands before the window).
 * Not thread-safe: one operator instance owns it.
 */
final class KeyTable {
    private static final Object NULL_KEY = new Object();
    /** In a key's place: the key is the {@code Long} of {@link #inline}'s value. */
    private static final Object LONG_KEY = new Object();
    /** In a key's place: the key is the {@code Integer} of {@link #inline}'s value. */
    private static final Object INT_KEY = new Object();

    private static final int MIN_SLOTS = 16;

    /** Slot i's key at {@code 2i} (null: free), its value at {@code 2i + 1}. */
    private Object[] entries;
    /** Slot i's key's hash at {@code 2i}, its count at {@code 2i + 1}. */
    private int[] meta;
    /** Slot i's key's value, where its key's place holds {@link #LONG_KEY} or {@link #INT_KEY}. */
    private long[] inline;
    /** Slot i's sum, in a table of sums ({@link #ofSums}); null otherwise. */
    private long[] sums;

    private final boolean withSums;

    private int size;
    private int mask;

    KeyTable() {
        this(false);
    }

    private KeyTable(boolean withSums) {
        this.withSums = withSums;
        allocate(MIN_SLOTS);
    }

    /**
     * A table whose keys each hold a {@code long} sum ({@link #sumAt}) instead of an accumulator object:
     * a window summing or counting keeps no object per key but the key.
     */
    static KeyTable ofSums() {
        return new KeyTable(true);
    }

    /** An empty table of {@code slots} slots (a power of two), as {@link #slots} gave them. */
    static KeyTable withSlots(boolean withSums, int slots) {
        if (slots < MIN_SLOTS || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("a key table of " + slots + " slots");
        }
        KeyTable table = new KeyTable(withSums);
        table.allocate(slots);
        return table;
    }

    private void allocate(int slots) {
        entries = new Object[slots * 2];
        meta = new int[slots * 2];
        inline = new long[slots];
        sums = withSums ? new long[slots] : null;
        mask = slots - 1;
    }

    boolean keepsSums() {
        return withSums;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** One past the last slot: a pass over the entries visits the slots below it whose {@link #used} is true. */
    int slots() {
        return mask + 1;
    }

    boolean used(int slot) {
        return entries[slot << 1] != null;
    }

    Object keyAt(int slot) {
        Object key = entries[slot << 1];
        if (key == LONG_KEY) {
            return inline[slot];
        }
        if (key == INT_KEY) {
            return (int) inline[slot];
        }
        return key == NULL_KEY ? null : key;
    }

    /** The key's hash as this table keeps it: what {@link #find(Object, int)} and {@link #slotOf(Object, int)} take. */
    int hashAt(int slot) {
        return meta[slot << 1];
    }

    Object valueAt(int slot) {
        return entries[(slot << 1) + 1];
    }

    void setValueAt(int slot, Object value) {
        entries[(slot << 1) + 1] = value;
    }

    long sumAt(int slot) {
        return sums[slot];
    }

    void addToSum(int slot, long value) {
        sums[slot] += value;
    }

    int countAt(int slot) {
        return meta[(slot << 1) + 1];
    }

    void setCountAt(int slot, int count) {
        meta[(slot << 1) + 1] = count;
    }

    /** The slot of {@code key}, or -1. */
    int find(Object key) {
        Object k = key == null ? NULL_KEY : key;
        return find(k, hash(k));
    }

    /** The slot of {@code key} whose hash (as {@link #hashAt} gives it) is {@code hash}, or -1. */
    int find(Object key, int hash) {
        if (key instanceof Long l) {
            return findInline(LONG_KEY, l, hash);
        }
        if (key instanceof Integer i) {
            return findInline(INT_KEY, i, hash);
        }
        Object k = key == null ? NULL_KEY : key;
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            Object present = entries[slot << 1];
            if (present == null) {
                return -1;
            }
            if (meta[slot << 1] == hash && (present == k || present.equals(k))) {
                return slot;
            }
        }
    }

    /** The slot in this table of {@code other}'s key at {@code otherSlot}, or -1; an inline key is not boxed. */
    int findLike(KeyTable other, int otherSlot) {
        Object marker = other.entries[otherSlot << 1];
        int hash = other.meta[otherSlot << 1];
        return marker == LONG_KEY || marker == INT_KEY
                ? findInline(marker, other.inline[otherSlot], hash)
                : find(marker, hash);
    }

    private int findInline(Object marker, long value, int hash) {
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            Object present = entries[slot << 1];
            if (present == null) {
                return -1;
            }
            if (present == marker && inline[slot] == value) {
                return slot;
            }
        }
    }

    /** The value of {@code key}, or null. */
    Object get(Object key) {
        int slot = find(key);
        return slot < 0 ? null : valueAt(slot);
    }

    /**
     * The slot of {@code key}, added with a null value and a count of 0 if it was absent. The slot stays
     * valid until the next insertion or removal.
     */
    int slotOf(Object key) {
        Object k = key == null ? NULL_KEY : key;
        return slotOf(k, hash(k));
    }

    /** {@link #slotOf(Object)} for a key whose hash (as {@link #hashAt} gives it) is {@code hash}. */
    int slotOf(Object key, int hash) {
        if (key instanceof Long l) {
            return slotOfInline(LONG_KEY, l, hash);
        }
        if (key instanceof Integer i) {
            return slotOfInline(INT_KEY, i, hash);
        }
        Object k = key == null ? NULL_KEY : key;
        int slot = hash & mask;
        for (; ; slot = (slot + 1) & mask) {
            Object present = entries[slot << 1];
            if (present == null) {
                break;
            }
            if (meta[slot << 1] == hash && (present == k || present.equals(k))) {
                return slot;
            }
        }
        if ((size + 1) * 4 > slots() * 3) {
            grow();
            return slotOf(k, hash);
        }
        entries[slot << 1] = k;
        meta[slot << 1] = hash;
        size++;
        return slot;
    }

    /** {@link #slotOf(Object)} for {@code other}'s key at {@code otherSlot}; an inline key is not boxed. */
    int slotOfLike(KeyTable other, int otherSlot) {
        Object marker = other.entries[otherSlot << 1];
        int hash = other.meta[otherSlot << 1];
        return marker == LONG_KEY || marker == INT_KEY
                ? slotOfInline(marker, other.inline[otherSlot], hash)
                : slotOf(marker, hash);
    }

    private int slotOfInline(Object marker, long value, int hash) {
        int slot = hash & mask;
        for (; ; slot = (slot + 1) & mask) {
            Object present = entries[slot << 1];
            if (present == null) {
                break;
            }
            if (present == marker && inline[slot] == value) {
                return slot;
            }
        }
        if ((size + 1) * 4 > slots() * 3) {
            grow();
            return slotOfInline(marker, value, hash);
        }
        entries[slot << 1] = marker;
        inline[slot] = value;
        meta[slot << 1] = hash;
        size++;
        return slot;
    }

    /**
     * Removes the entry at {@code slot}, moving back the entries after it that probed past it (so no
     * tombstones are left for later lookups to walk). An entry moved back may land below {@code slot}: a pass
     * over this table that removes must not rely on visiting every entry once.
     */
    void removeAt(int slot) {
        int free = slot;
        for (int next = (free + 1) & mask; entries[next << 1] != null; next = (next + 1) & mask) {
            int home = meta[next << 1] & mask;
            // The entry at next may move back to free unless its home lies in (free, next], cyclically.
            boolean homeAfterFree = free <= next ? home > free && home <= next : home > free || home <= next;
            if (!homeAfterFree) {
                copySlot(next, free);
                free = next;
            }
        }
        entries[free << 1] = null;
        entries[(free << 1) + 1] = null;
        meta[(free << 1) + 1] = 0;
        if (withSums) {
            sums[free] = 0;
        }
        size--;
    }

    private void copySlot(int from, int to) {
        entries[to << 1] = entries[from << 1];
        entries[(to << 1) + 1] = entries[(from << 1) + 1];
        meta[to << 1] = meta[from << 1];
        meta[(to << 1) + 1] = meta[(from << 1) + 1];
        inline[to] = inline[from];
        if (withSums) {
            sums[to] = sums[from];
        }
    }

    /** Empties the table, keeping its arrays for the next use unless they are far larger than it needed. */
    void clear() {
        if (slots() > MIN_SLOTS && size * 8 < slots()) {
            allocate(Math.max(MIN_SLOTS, Integer.highestOneBit(Math.max(1, size)) * 4));
        } else {
            Arrays.fill(entries, null);
            Arrays.fill(meta, 0);
            if (withSums) {
                Arrays.fill(sums, 0);
            }
        }
        size = 0;
    }

    private void grow() {
        Object[] oldEntries = entries;
        int[] oldMeta = meta;
        long[] oldSums = sums;
        long[] oldInline = inline;
        allocate(slots() * 2);
        for (int i = 0; i < oldEntries.length; i += 2) {
            Object key = oldEntries[i];
            if (key != null) {
                int slot = oldMeta[i] & mask;
                while (entries[slot << 1] != null) {
                    slot = (slot + 1) & mask;
                }
                entries[slot << 1] = key;
                entries[(slot << 1) + 1] = oldEntries[i + 1];
                meta[slot << 1] = oldMeta[i];
                meta[(slot << 1) + 1] = oldMeta[i + 1];
                inline[slot] = oldInline[i >> 1];
                if (withSums) {
                    sums[slot] = oldSums[i >> 1];
                }
            }
        }
    }

    /** The key's hash with its high bits mixed down, since a slot takes the low bits only. */
    private static int hash(Object key) {
        int h = key.hashCode() * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
