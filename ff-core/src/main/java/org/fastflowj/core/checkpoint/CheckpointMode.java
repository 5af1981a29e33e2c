package org.fastflowj.core.checkpoint;

/** What a checkpoint guarantees of the state it holds. */
public enum CheckpointMode {
    /**
     * A node with several inputs aligns their barriers: after one input's barrier it takes nothing more
     * from that input until every input's barrier came, so its state holds each item before the barrier
     * and none after. With transactional sinks, output is exactly once.
     */
    EXACTLY_ONCE,
    /**
     * No alignment: a node snapshots when its last input's barrier comes and takes from every input
     * meanwhile. Nothing stalls, but after a restart items that came after an early barrier are seen again.
     */
    AT_LEAST_ONCE
}
