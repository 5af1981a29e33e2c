package org.fastflowj.core.checkpoint;

/**
 * A run's checkpoints so far, in its {@code RunStats}.
 *
 * @param completed checkpoints completed, over every attempt of the run
 * @param lastId the newest completed checkpoint's number (0: none yet)
 * @param lastDurationNanos from its barrier's request to its being durable in the store
 * @param lastSizeBytes the size of its nodes' states
 * @param lastAlignmentNanos the longest any node held inputs back to align its barriers
 * @param restarts how often the run started again from a checkpoint after a failure
 */
public record CheckpointStats(
        long completed,
        long lastId,
        long lastDurationNanos,
        long lastSizeBytes,
        long lastAlignmentNanos,
        int restarts) {
    /** A run with checkpoints before its first completed one. */
    public static final CheckpointStats NONE = new CheckpointStats(0, 0, 0, 0, 0, 0);
}
