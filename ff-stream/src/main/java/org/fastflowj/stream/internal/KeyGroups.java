package org.fastflowj.stream.internal;

/**
 * Keys are hashed into a fixed number of key groups, and key groups are mapped onto a keyed operator's
 * instances in contiguous ranges (as Flink does), so that keyed state can later be re-partitioned by
 * moving whole key groups.
 */
public final class KeyGroups {
    public static final int COUNT = 128;

    private KeyGroups() {}

    public static int group(Object key) {
        int h = key.hashCode() * 0x9E3779B9;
        return Math.floorMod(h ^ (h >>> 16), COUNT);
    }

    public static int instance(Object key, int instances) {
        return group(key) * instances / COUNT;
    }
}
