package org.fastflowj.dist.serial;

import java.util.Arrays;

/**
 * A sender's account of the macro data-flow parameter values the group at the other end of its link holds
 * ({@link CachedValues} there): which object identity, in which version, and how many bytes it weighs.
 * The sender alone decides what the receiver keeps: it sends a value in full when the receiver does not
 * hold that version, and when the values held outweigh the receiving group's {@code
 * maxCachedBytesPerLink} it drops the least recently used and tells the receiver so in the same message,
 * so the two stay equal message by message without ever deciding alike on their own.
 *
 * <p>What one item changed can be taken back ({@link #revertItem}): a sender that cuts an item off the
 * batch it was written into writes it again into the next, and the receiver must then see exactly the
 * second writing. Each entry's state before the item is logged the first time the item touches it.
 *
 * <p>Threading: the sender's thread (its codec's).
 */
final class HeldValues {
    /**
     * What an entry weighs besides its value's bytes, on both sides of a link: the table slot and the
     * entry objects. Without it, a peer could have a receiver keep millions of one-byte values.
     */
    static final int ENTRY_OVERHEAD_BYTES = 64;

    /** One value the receiver holds, in least-recently-used order. */
    static final class Held {
        final long id;
        int version;
        int weight;
        /** The item that last logged this entry's state ({@link #revertItem}). */
        long loggedInItem = -1;

        boolean inTable;
        Held newer;
        Held older;

        Held(long id) {
            this.id = id;
        }
    }

    private final long capacity;
    private final LongTable<Held> table = new LongTable<>();
    /** Sentinel of the recency list: {@code lru.newer} is the least recently used. */
    private final Held lru = new Held(-1);

    private long weight;
    /** Items started so far: the current one's number. */
    private long item;

    // The undo log of the current item: each touched entry's state before it, in parallel arrays reused.
    private Held[] logged = new Held[16];
    private boolean[] loggedPresent = new boolean[16];
    private int[] loggedVersion = new int[16];
    private int[] loggedWeight = new int[16];
    private int logSize;

    /** Identities dropped by the item being written, for its message's eviction list. */
    private long[] evicted = new long[16];

    private int evictedCount;

    private long valuesSentInFull;
    private long referencesSent;

    /** @param capacity the receiving group's {@code maxCachedBytesPerLink}; 0: nothing is held */
    HeldValues(long capacity) {
        this.capacity = capacity;
        lru.newer = lru;
        lru.older = lru;
    }

    /** Whether the receiver keeps anything: with a capacity of 0 every value goes in full, without identity. */
    boolean caches() {
        return capacity > 0;
    }

    /** Before each item: a fresh undo log and eviction list. */
    void startItem() {
        item++;
        logSize = 0;
        evictedCount = 0;
    }

    /** Whether the receiver holds {@code id} in {@code version}; if so, it counts as just used. */
    boolean holds(long id, int version) {
        Held h = table.get(id);
        if (h == null || h.version != version) {
            return false;
        }
        toNewest(h);
        referencesSent++;
        return true;
    }

    /** The receiver now holds {@code id} in {@code version}, a value of {@code bytes} sent in full. */
    void sentInFull(long id, int version, int bytes) {
        Held h = table.get(id);
        if (h == null) {
            h = new Held(id);
            log(h);
            h.version = version;
            h.weight = bytes + ENTRY_OVERHEAD_BYTES;
            insert(h);
        } else {
            log(h);
            weight += bytes + ENTRY_OVERHEAD_BYTES - h.weight;
            h.version = version;
            h.weight = bytes + ENTRY_OVERHEAD_BYTES;
            toNewest(h);
        }
        valuesSentInFull++;
    }

    /**
     * The task writes {@code id} in the receiving group, which then holds the next version: its worker
     * writes the held value in place. (Its result still comes back in full.)
     */
    void writtenThere(long id, int nextVersion) {
        Held h = table.get(id);
        if (h != null) {
            log(h);
            h.version = nextVersion;
        }
    }

    /**
     * After the item's parameters: drops the least recently used values until the rest fit the capacity,
     * and returns how many; {@link #evicted} holds their identities, for the receiver to drop them too.
     */
    int evictOverCapacity() {
        while (weight > capacity && lru.newer != lru) {
            Held oldest = lru.newer;
            log(oldest);
            remove(oldest);
            if (evictedCount == evicted.length) {
                evicted = Arrays.copyOf(evicted, 2 * evictedCount);
            }
            evicted[evictedCount++] = oldest.id;
        }
        return evictedCount;
    }

    long evicted(int i) {
        return evicted[i];
    }

    /** Takes back everything the item started last changed: the receiver will not see it as written. */
    void revertItem() {
        for (int i = logSize - 1; i >= 0; i--) {
            Held h = logged[i];
            if (loggedPresent[i]) {
                if (!h.inTable) {
                    insert(h);
                }
                weight += loggedWeight[i] - h.weight;
                h.version = loggedVersion[i];
                h.weight = loggedWeight[i];
            } else if (h.inTable) {
                remove(h);
            }
            logged[i] = null;
        }
        logSize = 0;
        evictedCount = 0;
    }

    /** Bytes the receiver holds, overheads included (for tests). */
    long weight() {
        return weight;
    }

    /** Values held (for tests). */
    int size() {
        return table.size();
    }

    long valuesSentInFull() {
        return valuesSentInFull;
    }

    long referencesSent() {
        return referencesSent;
    }

    /** The entry's state before the current item, once per item. */
    private void log(Held h) {
        if (h.loggedInItem == item) {
            return;
        }
        h.loggedInItem = item;
        if (logSize == logged.length) {
            int n = 2 * logSize;
            logged = Arrays.copyOf(logged, n);
            loggedPresent = Arrays.copyOf(loggedPresent, n);
            loggedVersion = Arrays.copyOf(loggedVersion, n);
            loggedWeight = Arrays.copyOf(loggedWeight, n);
        }
        logged[logSize] = h;
        loggedPresent[logSize] = h.inTable;
        loggedVersion[logSize] = h.version;
        loggedWeight[logSize] = h.weight;
        logSize++;
    }

    private void insert(Held h) {
        table.put(h.id, h);
        h.inTable = true;
        weight += h.weight;
        h.older = lru.older;
        h.newer = lru;
        lru.older.newer = h;
        lru.older = h;
    }

    private void remove(Held h) {
        table.remove(h.id);
        h.inTable = false;
        weight -= h.weight;
        unlink(h);
    }

    private void toNewest(Held h) {
        unlink(h);
        h.older = lru.older;
        h.newer = lru;
        lru.older.newer = h;
        lru.older = h;
    }

    private static void unlink(Held h) {
        h.older.newer = h.newer;
        h.newer.older = h.older;
        h.newer = null;
        h.older = null;
    }
}
