package org.fastflowj.core.checkpoint;

import java.util.ArrayList;
import java.util.List;
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
 *
 * <p>With incremental checkpoints ({@link IncrementalCheckpointed}) a node's state may hold only what
 * changed since its state in an earlier checkpoint: {@code changesSince} names that one. A checkpoint
 * read back from a store (or kept in memory by the run) also carries, in {@code earlierStates}, the
 * states each such node's state builds on, oldest (a whole state) first; a saved one need not.
 *
 * @param changesSince for a node whose state holds changes only, the checkpoint holding its state before
 * @param earlierStates for the same nodes, their earlier states, oldest first, when known (else empty)
 */
public record Checkpoint(
        long id,
        Map<String, byte[]> states,
        Set<String> finished,
        Map<String, Long> changesSince,
        Map<String, List<byte[]>> earlierStates) {
    public Checkpoint {
        if (id < 0) {
            throw new IllegalArgumentException("a checkpoint's id is >= 0, got " + id);
        }
        states = Map.copyOf(Objects.requireNonNull(states, "states"));
        finished = Set.copyOf(Objects.requireNonNull(finished, "finished"));
        changesSince = Map.copyOf(Objects.requireNonNull(changesSince, "changesSince"));
        earlierStates = Map.copyOf(Objects.requireNonNull(earlierStates, "earlierStates"));
        for (Map.Entry<String, Long> e : changesSince.entrySet()) {
            if (!states.containsKey(e.getKey())) {
                throw new IllegalArgumentException("node " + e.getKey() + " has changes since checkpoint "
                        + e.getValue() + " but no state in checkpoint " + id);
            }
            if (e.getValue() >= id || e.getValue() < 0) {
                throw new IllegalArgumentException("node " + e.getKey() + "'s state in checkpoint " + id
                        + " cannot build on checkpoint " + e.getValue());
            }
        }
    }

    /** A checkpoint of whole states. */
    public Checkpoint(long id, Map<String, byte[]> states, Set<String> finished) {
        this(id, states, finished, Map.of(), Map.of());
    }

    /** A checkpoint taken while every node still ran, of whole states. */
    public Checkpoint(long id, Map<String, byte[]> states) {
        this(id, states, Set.of());
    }

    /**
     * {@code node}'s states to restore in order: a whole state, then each change set after it; empty if
     * the node has no state here.
     *
     * @throws IllegalStateException if the node's state holds changes whose earlier states are not known
     */
    public List<byte[]> chainOf(String node) {
        byte[] state = states.get(node);
        if (state == null) {
            return List.of();
        }
        Long since = changesSince.get(node);
        if (since == null) {
            return List.of(state);
        }
        List<byte[]> earlier = earlierStates.get(node);
        if (earlier == null || earlier.isEmpty()) {
            throw new IllegalStateException("node " + node + "'s state in checkpoint " + id
                    + " holds changes since checkpoint " + since + ", whose states are not known");
        }
        List<byte[]> chain = new ArrayList<>(earlier);
        chain.add(state);
        return List.copyOf(chain);
    }

    /** This checkpoint with the earlier states its change sets build on. */
    public Checkpoint withEarlierStates(Map<String, List<byte[]>> earlier) {
        return new Checkpoint(id, states, finished, changesSince, earlier);
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
