package org.fastflowj.core.checkpoint;

import java.util.Map;
import java.util.Objects;

/**
 * One completed checkpoint: its number and the state of each node that has some, by the node's name in
 * the graph (its thread's name without the {@code ff-} prefix).
 */
public record Checkpoint(long id, Map<String, byte[]> states) {
    public Checkpoint {
        if (id < 0) {
            throw new IllegalArgumentException("a checkpoint's id is >= 0, got " + id);
        }
        states = Map.copyOf(Objects.requireNonNull(states, "states"));
    }

    /** The total size of the states, in bytes. */
    public long sizeBytes() {
        long size = 0;
        for (byte[] state : states.values()) {
            size += state.length;
        }
        return size;
    }
}
