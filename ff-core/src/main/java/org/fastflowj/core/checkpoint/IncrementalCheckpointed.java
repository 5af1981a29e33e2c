package org.fastflowj.core.checkpoint;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A node with state too large to write whole at every checkpoint (keyed state of many keys): with
 * incremental checkpoints on ({@code RunOptions.fullCheckpointEvery}), most checkpoints hold only what
 * changed since the node's previous snapshot, and every n-th its whole state. A restart restores the
 * last whole state before the checkpoint, then each change after it in order.
 *
 * <p>Threading: as {@link Checkpointed}, every method on the node's own thread.
 */
public interface IncrementalCheckpointed extends Checkpointed {
    /**
     * Incremental checkpoints are on: from now on the node notes what changes, for {@link
     * #snapshotChanges}. Called once, before the node's first snapshot, and again after a restore.
     */
    void trackChanges();

    /**
     * Writes what changed since the node's previous {@link #snapshot} or {@code snapshotChanges}, and
     * starts noting changes afresh. Copy, do not compute, as for {@link #snapshot}.
     */
    void snapshotChanges(long checkpointId, DataOutput out) throws IOException;

    /** After {@link #restore} of a whole state: applies one {@link #snapshotChanges} that followed it. */
    void restoreChanges(DataInput in) throws IOException;
}
