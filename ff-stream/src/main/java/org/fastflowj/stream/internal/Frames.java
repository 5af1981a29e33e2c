package org.fastflowj.stream.internal;

import java.util.HashMap;
import java.util.TreeMap;

/**
 * A window's frames by start time, each a map of key to accumulator, with the frame used last kept at
 * hand: most records go to the newest frame, so most take no tree lookup.
 */
final class Frames {
    final TreeMap<Long, HashMap<Object, Object>> byStart = new TreeMap<>();
    private long lastStart;
    private HashMap<Object, Object> last;

    /** The frame that starts at {@code frameStart}, made empty if there is none. */
    HashMap<Object, Object> at(long frameStart) {
        if (last == null || frameStart != lastStart) {
            last = byStart.computeIfAbsent(frameStart, f -> new HashMap<>());
            lastStart = frameStart;
        }
        return last;
    }

    /** Notes that the frame at {@code frameStart} left {@link #byStart}. */
    void removed(long frameStart) {
        if (last != null && frameStart == lastStart) {
            last = null;
        }
    }
}
