package org.fastflowj.dist.net;

import java.util.Objects;

/**
 * What one group's transport needs to know: its own name, the fingerprint of the program it runs, the
 * optional shared secret and TLS files, and the timing and size limits of its connections.
 *
 * <p>{@code secretOrNull} is copied on the way in so a caller cannot change it later; leave it null to
 * run without authentication (then the handshake proofs are 32 zero bytes). {@code
 * handshakeTimeoutMs} bounds the whole handshake, TLS included, on both sides.
 *
 * <p>Threading: immutable (do not modify the array returned by {@link #secretOrNull()}).
 */
public record WireSettings(
        String localGroup,
        long fingerprint,
        byte[] secretOrNull,
        TlsFiles tlsOrNull,
        long connectTimeoutMs,
        long handshakeTimeoutMs,
        long heartbeatIntervalMs,
        long heartbeatTimeoutMs,
        int maxFrameBytes) {

    /** Big enough for a HELLO with two group names of a few hundred characters. */
    public static final int MIN_FRAME_BYTES = 1024;

    public WireSettings {
        Objects.requireNonNull(localGroup, "localGroup");
        if (localGroup.isBlank()) {
            throw new IllegalArgumentException("localGroup must not be blank");
        }
        secretOrNull = secretOrNull == null ? null : secretOrNull.clone();
        requirePositive("connectTimeoutMs", connectTimeoutMs);
        requirePositive("handshakeTimeoutMs", handshakeTimeoutMs);
        requirePositive("heartbeatIntervalMs", heartbeatIntervalMs);
        requirePositive("heartbeatTimeoutMs", heartbeatTimeoutMs);
        if (heartbeatTimeoutMs <= heartbeatIntervalMs) {
            throw new IllegalArgumentException("heartbeatTimeoutMs (" + heartbeatTimeoutMs
                    + ") must exceed heartbeatIntervalMs (" + heartbeatIntervalMs
                    + "), or a healthy idle link would be declared dead");
        }
        if (maxFrameBytes < MIN_FRAME_BYTES) {
            throw new IllegalArgumentException(
                    "maxFrameBytes (" + maxFrameBytes + ") must be at least " + MIN_FRAME_BYTES);
        }
    }

    /**
     * Defaults: no secret, no TLS, 30 s to connect, 10 s to shake hands, a heartbeat after 1 s of
     * silence, a link dead after 5 s without reading anything, frames up to 16 MiB.
     */
    public static WireSettings defaults(String localGroup, long fingerprint) {
        return new WireSettings(localGroup, fingerprint, null, null, 30_000, 10_000, 1_000, 5_000, 16 << 20);
    }

    public WireSettings withSecret(byte[] secret) {
        return new WireSettings(
                localGroup,
                fingerprint,
                secret,
                tlsOrNull,
                connectTimeoutMs,
                handshakeTimeoutMs,
                heartbeatIntervalMs,
                heartbeatTimeoutMs,
                maxFrameBytes);
    }

    public WireSettings withTls(TlsFiles tls) {
        return new WireSettings(
                localGroup,
                fingerprint,
                secretOrNull,
                tls,
                connectTimeoutMs,
                handshakeTimeoutMs,
                heartbeatIntervalMs,
                heartbeatTimeoutMs,
                maxFrameBytes);
    }

    public WireSettings withTimeouts(long connectMs, long handshakeMs) {
        return new WireSettings(
                localGroup,
                fingerprint,
                secretOrNull,
                tlsOrNull,
                connectMs,
                handshakeMs,
                heartbeatIntervalMs,
                heartbeatTimeoutMs,
                maxFrameBytes);
    }

    public WireSettings withHeartbeat(long intervalMs, long timeoutMs) {
        return new WireSettings(
                localGroup,
                fingerprint,
                secretOrNull,
                tlsOrNull,
                connectTimeoutMs,
                handshakeTimeoutMs,
                intervalMs,
                timeoutMs,
                maxFrameBytes);
    }

    public WireSettings withMaxFrameBytes(int max) {
        return new WireSettings(
                localGroup,
                fingerprint,
                secretOrNull,
                tlsOrNull,
                connectTimeoutMs,
                handshakeTimeoutMs,
                heartbeatIntervalMs,
                heartbeatTimeoutMs,
                max);
    }

    @Override
    public String toString() {
        // Never print the secret itself.
        return "WireSettings[localGroup=" + localGroup + ", fingerprint=0x" + Long.toHexString(fingerprint)
                + ", secret=" + (secretOrNull == null ? "none" : "set") + ", tls=" + tlsOrNull
                + ", connectTimeoutMs=" + connectTimeoutMs + ", handshakeTimeoutMs=" + handshakeTimeoutMs
                + ", heartbeatIntervalMs=" + heartbeatIntervalMs + ", heartbeatTimeoutMs=" + heartbeatTimeoutMs
                + ", maxFrameBytes=" + maxFrameBytes + "]";
    }

    private static void requirePositive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
