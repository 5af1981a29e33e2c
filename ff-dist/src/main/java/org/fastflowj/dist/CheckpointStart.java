package org.fastflowj.dist;

/**
 * Where a group's checkpoints start, as the launcher chose it for every group of an attempt while none ran
 * ({@link DFF#RESUME_ENV}, {@link DFF#CHECKPOINTS_AFTER_ENV}): the checkpoint it resumes from, and the number
 * its new checkpoints come after.
 *
 * @param resumeFrom the checkpoint to resume from; 0: none is complete, start afresh; -1: a first start
 * @param numberedAfter the highest checkpoint number in the store; -1: unknown, the group reads the store
 */
public record CheckpointStart(long resumeFrom, long numberedAfter) {
    /** A group started by hand: nothing to resume, the group numbers after what it finds. */
    public static final CheckpointStart UNKNOWN = new CheckpointStart(-1, -1);

    public CheckpointStart {
        if (resumeFrom < -1 || numberedAfter < -1) {
            throw new IllegalArgumentException(
                    "checkpoint numbers are 0 or more: " + resumeFrom + ", " + numberedAfter);
        }
    }

    /** Whether the group resumes (from a checkpoint, or afresh when none was complete). */
    public boolean resumes() {
        return resumeFrom >= 0;
    }
}
