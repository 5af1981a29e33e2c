package org.fastflowj.core;

/**
 * What one node thread did in a run. {@code svcNanos} is the thread's running time minus the time it
 * was blocked, so it also holds the (small) per-item cost of the run-time.
 *
 * @param name the node's name ({@link Node#named}), else its thread's name (its place in the tree)
 * @param itemsIn items taken from input channels and given to {@code svc}
 * @param itemsOut items put on output channels (EOS not counted)
 * @param svcNanos time in {@code svc} and the run-time around it
 * @param blockedInputNanos time waiting on empty input channels
 * @param blockedOutputNanos time waiting on full output channels
 * @param cpu the CPU the thread was pinned to, or -1
 */
public record NodeStats(
        String name,
        long itemsIn,
        long itemsOut,
        long svcNanos,
        long blockedInputNanos,
        long blockedOutputNanos,
        int cpu) {}
