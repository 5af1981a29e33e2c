package org.fastflowj.dist.net;

/**
 * The waits between connect attempts while a peer is not listening yet: 5 ms, then doubling, at most
 * 20 ms for the first 2 s of waiting, then doubling on to at most 100 ms.
 *
 * <p>Groups started together come up within a second or so of each other (the README's three
 * filesearch groups on a loaded 2-core machine), and every millisecond a group idles after its peer
 * listens is a millisecond more to the first result ({@code ff-bench/first-result.sh}): at 20 ms a group
 * joins its peer within 20 ms (10 on average), where 100 ms cost up to 100 (50 on average). An attempt is
 * not free, though (Netty's channel set-up and tear-down): a group waiting alone spends about 7 % of a
 * core retrying every 20 ms and 2-4 % every 100 ms ({@code perf stat} of one group waiting 2 s and 6 s
 * for peers that never come). A peer that takes longer than 2 s (a remote host, a slow node) is waited
 * for at the cheaper pace.
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
