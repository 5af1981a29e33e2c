package org.fastflowj.dist.net;

/**
 * The waits between connect attempts while a peer is not listening yet: 5 ms, then doubling, at most
 * 20 ms for the first 2 s of waiting, then doubling on to at most 100 ms.
 *
 * <p>Groups started together come up close to each other, and every millisecond a group idles after its
 * peer listens is a millisecond more to the first result ({@code ff-bench/first-result.sh}): a group
 * joins its peer within one wait, half a wait on average, so the first waits are short. An attempt is not
 * free, though (Netty's channel set-up and tear-down): the shorter the wait, the more of a core a group
 * waiting alone spends retrying. A peer that takes longer than the fast phase (a remote host, a slow
 * node) is waited for at the cheaper pace.
 *
 * <p>Threading: one instance per connect, used by its thread only.
 */
final class ConnectBackoff {
    static final long FIRST_MS = 5;
    static final long FAST_MAX_MS = 20;
    static final long SLOW_MAX_MS = 100;
    /** How long the attempts stay at most {@link #FAST_MAX_MS} apart. */
    static final long FAST_PERIOD_MS = 2_000;

    private long nextMs = FIRST_MS;
    private long waitedMs;

    /** How long to wait before the next attempt. */
    long nextWaitMs() {
        long wait = nextMs;
        waitedMs += wait;
        nextMs = Math.min(nextMs * 2, waitedMs < FAST_PERIOD_MS ? FAST_MAX_MS : SLOW_MAX_MS);
        return wait;
    }
}
