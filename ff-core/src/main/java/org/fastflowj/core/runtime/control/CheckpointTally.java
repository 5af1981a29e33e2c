package org.fastflowj.core.runtime.control;

import org.fastflowj.core.checkpoint.CheckpointStats;

/**
 * A run's checkpoint counts over all its attempts: the checkpoint thread of each attempt adds the ones
 * it completes, the supervisor the restarts, any thread reads them. Not on an item's path: a monitor is
 * cheaper to read right than a lock-free scheme.
 */
public final class CheckpointTally {
    private CheckpointStats stats = CheckpointStats.NONE;

    synchronized void completed(long id, long durationNanos, long sizeBytes, long alignmentNanos) {
        stats = new CheckpointStats(
                stats.completed() + 1, id, durationNanos, sizeBytes, alignmentNanos, stats.restarts());
    }

    public synchronized void restarted() {
        stats = new CheckpointStats(
                stats.completed(),
                stats.lastId(),
                stats.lastDurationNanos(),
                stats.lastSizeBytes(),
                stats.lastAlignmentNanos(),
                stats.restarts() + 1);
    }

    public synchronized CheckpointStats stats() {
        return stats;
    }
}
