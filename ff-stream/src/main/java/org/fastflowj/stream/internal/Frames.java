package org.fastflowj.stream.internal;

import java.util.Iterator;
import java.util.TreeMap;

/**
 * A window's frames by start time, each a {@link KeyTable} of key to accumulator, with the frame used last
 * kept at hand (most records go to the newest frame, so most take no tree lookup) and the table of the
 * frame dropped last kept for the next frame (a window makes one per frame, of about the same keys).
 */
final class Frames {
    final TreeMap<Long, KeyTable> byStart = new TreeMap<>();
    private long lastStart;
    private KeyTable last;
    private KeyTable spare;
    private final boolean ofSums;

    /** @param ofSums whether the frames keep {@code long} sums ({@link KeyTable#ofSums}) */
    Frames(boolean ofSums) {
        this.ofSums = ofSums;
    }

    /** The frame that starts at {@code frameStart}, made empty if there is none. */
    KeyTable at(long frameStart) {
        if (last == null || frameStart != lastStart) {
            KeyTable table = byStart.get(frameStart);
            if (table == null) {
                table = spare != null ? spare : ofSums ? KeyTable.ofSums() : new KeyTable();
                spare = null;
                byStart.put(frameStart, table);
            }
            last = table;
            lastStart = frameStart;
        }
        return last;
    }

    /** Drops {@code table}, the frame {@code it} (over {@link #byStart} or a view of it) just returned. */
    void drop(KeyTable table, Iterator<?> it) {
        it.remove();
        if (last == table) {
            last = null;
        }
        table.clear();
        spare = table;
    }
}
