package org.fastflowj.dist.net;

import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accepting side's guard against strangers: at most {@code maxPending} inbound connections may be
 * in their handshake at once (a connection beyond that is closed at once, before a byte is read), and
 * refusals are logged at most once a second with a count of those not logged.
 *
 * <p>The cap bounds what unauthenticated connections can hold: each has a handshake deadline and
 * frames of a few KiB at most ({@link FrameDecoder#beforeHandshake}). A legitimate peer that meets a
 * full house is closed before its CHALLENGE and retries ({@link Connector}).
 *
 * <p>Threading: shared by all inbound channels of one transport; lock-free.
 */
final class HandshakeAdmission {
    /** Pending handshakes per transport; a run has one per peer group, so 64 is far above real use. */
    static final int MAX_PENDING_HANDSHAKES = 64;

    private static final Logger LOG = LoggerFactory.getLogger(HandshakeAdmission.class);

    private final String localGroup;
    private final int maxPending;
    private final AtomicInteger pending = new AtomicInteger();
    private final RateLimitedLog refusals = new RateLimitedLog(LOG, 1, TimeUnit.SECONDS);

    HandshakeAdmission(String localGroup, int maxPending) {
        this.localGroup = localGroup;
        this.maxPending = maxPending;
    }

    /** Takes a handshake slot for a new connection; false (and logged) if all are taken. */
    boolean tryAdmit(SocketAddress remote) {
        if (pending.incrementAndGet() <= maxPending) {
            return true;
        }
        pending.decrementAndGet();
        refusals.warn("closed connection from " + Addresses.describe(remote) + " to group " + localGroup + " at once: "
                + maxPending + " connections are already in their handshake");
        return false;
    }

    /** The connection's handshake ended (either way): its slot is free. Called once per admitted connection. */
    void release() {
        pending.decrementAndGet();
    }

    /** Logs why a connection was refused, rate-limited. */
    void logRefused(SocketAddress remote, String reason) {
        refusals.warn(
                "refused connection from " + Addresses.describe(remote) + " to group " + localGroup + ": " + reason);
    }

    int pendingCount() {
        return pending.get();
    }
}
