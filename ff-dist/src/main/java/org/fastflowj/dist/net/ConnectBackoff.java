package org.fastflowj.dist.net;

/**
 * The waits between connect attempts while a peer is not listening yet: 5 ms, then doubling, at most
 * 20 ms. Groups started together come up within a few hundred milliseconds of each other; a refused
 * connect to a port nobody listens on costs well under a millisecond (loopback or LAN), so retrying
 * every 20 ms costs a waiting group about 1 % of a core and joins a peer within 20 ms of it listening,
 * where a cap of 100 ms let a group idle up to 100 ms (50 on average) past the moment its peer listened,
 * a delay straight on the time to a first result ({@code ff-bench/first-result.sh}).
 *
 * <p>Threading: one instance per connect, used by its thread only.
 */
final class ConnectBackoff {
    static final long FIRST_MS = 5;
    static final long MAX_MS = 20;

    private long nextMs = FIRST_MS;

    /** How long to wait before the next attempt. */
    long nextWaitMs() {
        long wait = nextMs;
        nextMs = Math.min(nextMs * 2, MAX_MS);
        return wait;
    }
}
