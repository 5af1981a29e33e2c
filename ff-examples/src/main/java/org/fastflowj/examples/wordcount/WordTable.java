package org.fastflowj.examples.wordcount;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;

/**
 * Counts words given as ranges of a {@code char[]}, without making a {@code String} for a word it holds
 * already: open addressing over parallel arrays (key, its {@code String.hashCode}, its count), linear
 * probing, at most half full. A word costs one hash computed by the caller, one probe sequence and a
 * character comparison ({@code Arrays.equals} on ranges, vectorized by the JDK); only a word seen for the
 * first time is copied out, into a {@code char[]} key, and made a {@code String} when the table drains.
 *
 * <p>With change tracking on ({@link #trackChanges}), the table notes each slot whose count changed since
 * its last snapshot, once, so an incremental checkpoint writes those words only ({@link #writeChangesTo});
 * a growth or a drain moves every word, and the next change set is then the whole table.
 *
 * <p>Threading: not thread-safe; one per splitter and counter, owned by its node thread.
 */
final class WordTable {
    private static final int INITIAL_CAPACITY = 1 << 12;

    private char[][] keys = new char[INITIAL_CAPACITY][];
    private int[] hashes = new int[INITIAL_CAPACITY];
    private long[] counts = new long[INITIAL_CAPACITY];
    private int size;
    /** By slot, whether its count changed since the last snapshot; null while changes are not tracked. */
    private boolean[] changed;
    /** The slots marked in {@link #changed}, in the order they changed. */
    private int[] changedSlots;

    private int changedCount;
    /** The words moved (a growth, a drain) since the last snapshot: the next change set is the whole table. */
    private boolean replaced;

    /** The {@code String.hashCode} of {@code text[from, to)}. */
    static int hash(char[] text, int from, int to) {
        int h = 0;
        for (int i = from; i < to; i++) {
            h = 31 * h + text[i];
        }
        return h;
    }

    /** Counts one more {@code text[from, to)}, whose {@link #hash} is {@code hash}. */
    void add(char[] text, int from, int to, int hash) {
        int mask = keys.length - 1;
        for (int slot = spread(hash) & mask; ; slot = (slot + 1) & mask) {
            char[] key = keys[slot];
            if (key == null) {
                keys[slot] = Arrays.copyOfRange(text, from, to);
                hashes[slot] = hash;
                counts[slot] = 1;
                noteChange(slot);
                if (++size * 2 > keys.length) {
                    grow();
                }
                return;
            }
            if (hashes[slot] == hash && Arrays.equals(key, 0, key.length, text, from, to)) {
                counts[slot]++;
                noteChange(slot);
                return;
            }
        }
    }

    /** One test per word while changes are not tracked. */
    private void noteChange(int slot) {
        if (changed != null && !changed[slot]) {
            changed[slot] = true;
            changedSlots[changedCount++] = slot;
        }
    }

    /** From now on, notes which words change, for {@link #writeChangesTo}. */
    void trackChanges() {
        changed = new boolean[keys.length];
        changedSlots = new int[keys.length];
        changedCount = 0;
        replaced = false;
    }

    /** Every word moved: the marks start afresh, and the next change set is the whole table. */
    private void replaced() {
        if (changed != null) {
            trackChanges();
            replaced = true;
        }
    }

    /** A snapshot was taken: nothing has changed since. */
    void clearChanges() {
        if (changed != null) {
            for (int i = 0; i < changedCount; i++) {
                changed[changedSlots[i]] = false;
            }
            changedCount = 0;
            replaced = false;
        }
    }

    /**
     * What changed since the last snapshot (a flag, then the whole table or a {@link WordState} block of the
     * changed words with their counts), and nothing has changed since.
     */
    void writeChangesTo(DataOutput out) throws IOException {
        out.writeBoolean(replaced);
        if (replaced) {
            writeTo(out);
        } else {
            WordState.Encoder block = new WordState.Encoder(changedCount * 16);
            block.count(changedCount);
            for (int i = 0; i < changedCount; i++) {
                int slot = changedSlots[i];
                block.word(keys[slot]);
                block.count(counts[slot]);
            }
            block.writeTo(out);
        }
        clearChanges();
    }

    /** The table after the changes {@link #writeChangesTo} wrote: this one updated, or a new whole one. */
    WordTable withChangesFrom(DataInput in) throws IOException {
        if (in.readBoolean()) {
            return readFrom(in);
        }
        WordState.Decoder block = WordState.Decoder.readFrom(in);
        long changes = block.count();
        for (long i = 0; i < changes; i++) {
            char[] word = block.word();
            set(word, block.count());
        }
        return this;
    }

    /** Sets the count of {@code word}, which the table keeps as it is if new. */
    private void set(char[] word, long count) {
        int hash = hash(word, 0, word.length);
        int mask = keys.length - 1;
        for (int slot = spread(hash) & mask; keys[slot] != null; slot = (slot + 1) & mask) {
            if (hashes[slot] == hash && Arrays.equals(keys[slot], word)) {
                counts[slot] = count;
                return;
            }
        }
        add(word, count);
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }

    private void grow() {
        char[][] oldKeys = keys;
        int[] oldHashes = hashes;
        long[] oldCounts = counts;
        keys = new char[oldKeys.length * 2][];
        hashes = new int[keys.length];
        counts = new long[keys.length];
        int mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                int slot = spread(oldHashes[i]) & mask;
                while (keys[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = oldKeys[i];
                hashes[slot] = oldHashes[i];
                counts[slot] = oldCounts[i];
            }
        }
        replaced();
    }

    /** Counts {@code count} more of {@code word}, which the table keeps as it is. */
    void add(char[] word, long count) {
        int hash = hash(word, 0, word.length);
        int mask = keys.length - 1;
        for (int slot = spread(hash) & mask; ; slot = (slot + 1) & mask) {
            char[] key = keys[slot];
            if (key == null) {
                keys[slot] = word;
                hashes[slot] = hash;
                counts[slot] = count;
                noteChange(slot);
                if (++size * 2 > keys.length) {
                    grow();
                }
                return;
            }
            if (hashes[slot] == hash && Arrays.equals(key, word)) {
                counts[slot] += count;
                noteChange(slot);
                return;
            }
        }
    }

    /** The counts so far, as a {@link WordState} block: their number, then each word and its count. */
    void writeTo(DataOutput out) throws IOException {
        WordState.Encoder block = new WordState.Encoder(size * 16);
        block.count(size);
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null) {
                block.word(keys[i]);
                block.count(counts[i]);
            }
        }
        block.writeTo(out);
    }

    /** A table of the counts {@link #writeTo} wrote. */
    static WordTable readFrom(DataInput in) throws IOException {
        WordState.Decoder block = WordState.Decoder.readFrom(in);
        WordTable table = new WordTable();
        long size = block.count();
        for (long i = 0; i < size; i++) {
            char[] word = block.word();
            table.add(word, block.count());
        }
        return table;
    }

    /** Distinct words counted since the last {@link #drain}. */
    int size() {
        return size;
    }

    /** The counts so far as a map of its own (the table starts empty again). */
    HashMap<String, Long> drain() {
        HashMap<String, Long> words = new HashMap<>(size * 4 / 3 + 1);
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null) {
                words.put(new String(keys[i]), counts[i]);
            }
        }
        keys = new char[INITIAL_CAPACITY][];
        hashes = new int[INITIAL_CAPACITY];
        counts = new long[INITIAL_CAPACITY];
        size = 0;
        replaced();
        return words;
    }
}
