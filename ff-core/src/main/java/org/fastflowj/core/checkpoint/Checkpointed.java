package org.fastflowj.core.checkpoint;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A node whose state survives a failure: with checkpoints on ({@code RunOptions.checkpoints}), the run
 * asks it for its state each time a checkpoint's barrier passes it, and gives the state of the last
 * completed checkpoint back when it restarts. A source keeps its position here (a file offset, a
 * sequence number), so a restart replays what came after; a node that keeps anything across items must
 * implement it, or its state starts empty after a restart.
 *
 * <p>Threading: {@link #snapshot} and {@link #restore} run on the node's own thread, between two items
 * ({@code restore} after {@code svcInit}, before the first item); {@link #checkpointCompleted} runs on the
 * run's checkpoint thread, so it must touch only what {@code snapshot} handed over safely (a transactional
 * sink's files closed at that barrier, say).
 */
public interface Checkpointed {
    /**
     * Writes the node's state at checkpoint {@code checkpointId} (0: the state the run starts in). The
     * node stops for as long as this takes, so copy, do not compute: the bytes are written to the store on
     * another thread. A transactional sink closes here what it wrote since the last barrier and keeps it,
     * under this id, in the state, so that {@link #checkpointCompleted} (or a restore of this state, if the
     * run failed before the notice) commits it. A sink is also snapshotted once after its last item, before
     * {@code svcEnd}, under an id of its own; later checkpoints keep that state, and a restart from one of
     * them runs {@code svcInit}, {@code restore} and {@code svcEnd} only, so commits by id must be
     * idempotent.
     */
    void snapshot(long checkpointId, DataOutput out) throws IOException;

    /** Replaces the node's state by one {@link #snapshot} wrote. */
    void restore(DataInput in) throws IOException;

    /**
     * Checkpoint {@code id} is durable in the store: what the node produced before its barrier may be
     * made visible (committed). Called once per completed checkpoint, in order; nothing by default.
     */
    default void checkpointCompleted(long id) {}

    /**
     * For a source: whether a restart from its snapshot replays everything that came after it. A source
     * that cannot (what it reads is gone once read) says false, and a run with checkpoints is refused,
     * naming it, before it starts.
     */
    default boolean replays() {
        return true;
    }
}
