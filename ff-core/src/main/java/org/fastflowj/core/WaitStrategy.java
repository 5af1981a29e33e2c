package org.fastflowj.core;

/**
 * What a node thread does when its input is empty or its output is full.
 *
 * <ul>
 *   <li>{@link #BUSY_SPIN}: spins; lowest latency, but only when every node thread has its own core.
 *   <li>{@link #BACKOFF}: spins briefly, then yields, then parks until the other side wakes it. The
 *       default: it stays fast when there are more node threads than cores.
 *   <li>{@link #BLOCKING}: parks almost at once and is woken by the other side, in both directions (a
 *       consumer wakes a producer blocked on a full queue). Least CPU while idle.
 * </ul>
 */
public enum WaitStrategy {
    BUSY_SPIN,
    BACKOFF,
    BLOCKING
}
