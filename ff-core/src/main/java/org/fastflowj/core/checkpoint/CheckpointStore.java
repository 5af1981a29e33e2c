package org.fastflowj.core.checkpoint;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where completed checkpoints are kept. A checkpoint counts as completed only once {@link #save}
 * returned: the run then tells its nodes ({@link Checkpointed#checkpointCompleted}). A checkpoint that
 * is corrupt or was only partly written is never returned by {@link #latest}: the one before it is.
 *
 * <p>Threading: one checkpoint thread per run calls it; stores of several runs must not share a place.
 */
public interface CheckpointStore {
    /** A directory of the local (or a shared) file system, keeping the newest 3 checkpoints. */
    static CheckpointStore directory(Path directory) {
        return new DirectoryStore(directory, 3);
    }

    /** A directory keeping the newest {@code retained} (at least 1) checkpoints. */
    static CheckpointStore directory(Path directory, int retained) {
        return new DirectoryStore(directory, retained);
    }

    /** Makes {@code checkpoint} durable, then drops checkpoints beyond the retained ones. */
    void save(Checkpoint checkpoint) throws IOException;

    /** The newest checkpoint that reads back whole and checked, or empty if there is none. */
    Optional<Checkpoint> latest() throws IOException;

    /** The highest checkpoint number present, whole or not (0 if none): a run numbers its own after it. */
    long highestId() throws IOException;

    /** Where the checkpoints are, for messages. */
    String describe();
}
