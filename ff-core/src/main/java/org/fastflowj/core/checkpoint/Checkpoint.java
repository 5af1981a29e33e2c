package org.fastflowj.core.checkpoint;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One completed checkpoint: its number, the state of each node that has some, by the node's name in the
 * graph (its thread's name without the {@code ff-} prefix), and the nodes that had already ended when it
 * was taken. A restart from it starts those as ended: they take nothing, call nothing of the node's own
 * and send their end at once, since everything they sent before their end is in the other nodes' states.
 * An ended node with a state is a sink that kept one: the state it had after its last item, which a
 * restart restores between its svcInit and svcEnd.
 */
public record Checkpoint(long id, Map<String, byte[]> states, Set<String> finished) {
    public Checkpoint {
        if (id < 0) {
            throw new IllegalArgumentException("a checkpoint's id is >= 0, got " + id);
        }
        states = Map.copyOf(Objects.requireNonNull(states, "states"));
        finished = Set.copyOf(Objects.requireNonNull(finished, "finished"));
    }

    /** A checkpoint taken while every node still ran. */
    public Checkpoint(long id, Map<String, byte[]> states) {
        this(id, states, Set.of());
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
