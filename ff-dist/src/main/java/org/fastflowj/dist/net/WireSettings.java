package org.fastflowj.dist.net;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What one group's transport needs to know: its own name, the fingerprint of the program it runs, the
 * optional shared secret and TLS files, and the timing and size limits of its connections.
 *
 * <p>{@code secretOrNull} is copied on the way in so a caller cannot change it later; leave it null to
 * run without authentication (then the handshake proofs are 32 zero bytes). {@code
 * handshakeTimeoutMs} bounds the whole handshake, TLS included, on both sides.
 *
 * <p>With TLS, {@code tlsNames} maps each group to the name its certificate must carry (subject CN, or
 * a DNS or IP subject alternative name): a peer is accepted only if its certificate names the group it
 * claims to be (server side) or the group we dialled (client side). A group missing from the map is
 * refused.
 *
 * <p>With a secret and without TLS, a link's frames each carry a MAC ({@link FrameSealer}) unless both
 * ends are loopback addresses; {@code sealFramesOnLoopback} seals those too (tests, benchmarks).
 *
 * <p>Threading: immutable (do not modify the array returned by {@link #secretOrNull()}).
 */
public record WireSettings(
        String localGroup,
        long fingerprint,
        byte[] secretOrNull,
        TlsFiles tlsOrNull,
        Map<String, String> tlsNames,
        boolean sealFramesOnLoopback,
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
        tlsNames = Map.copyOf(tlsNames);
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
        return new WireSettings(
                localGroup, fingerprint, null, null, Map.of(), false, 30_000, 10_000, 1_000, 5_000, 16 << 20);
    }

    public WireSettings withSecret(byte[] secret) {
        return with(c -> c.secretOrNull = secret);
    }

    /** TLS with {@code files}; {@code names} gives the name each group's certificate must carry. */
    public WireSettings withTls(TlsFiles files, Map<String, String> names) {
        return with(c -> {
            c.tlsOrNull = files;
            c.tlsNames = names;
        });
    }

    /** Seals frames with a MAC also between two loopback addresses (when there is a secret and no TLS). */
    public WireSettings withFramesSealedOnLoopback(boolean seal) {
        return with(c -> c.sealFramesOnLoopback = seal);
    }

    public WireSettings withTimeouts(long connectMs, long handshakeMs) {
        return with(c -> {
            c.connectTimeoutMs = connectMs;
            c.handshakeTimeoutMs = handshakeMs;
        });
    }

    public WireSettings withHeartbeat(long intervalMs, long timeoutMs) {
        return with(c -> {
            c.heartbeatIntervalMs = intervalMs;
            c.heartbeatTimeoutMs = timeoutMs;
        });
    }

    public WireSettings withMaxFrameBytes(int max) {
        return with(c -> c.maxFrameBytes = max);
    }

    /** A copy with {@code change} applied to its components, checked again by the canonical constructor. */
    private WireSettings with(Consumer<Components> change) {
        Components c = new Components(this);
        change.accept(c);
        return new WireSettings(
                localGroup,
                fingerprint,
                c.secretOrNull,
                c.tlsOrNull,
                c.tlsNames,
                c.sealFramesOnLoopback,
                c.connectTimeoutMs,
                c.handshakeTimeoutMs,
                c.heartbeatIntervalMs,
                c.heartbeatTimeoutMs,
                c.maxFrameBytes);
    }

    /** The components a wither may change, as they are in the settings it copies until it changes them. */
    private static final class Components {
        byte[] secretOrNull;
        TlsFiles tlsOrNull;
        Map<String, String> tlsNames;
        boolean sealFramesOnLoopback;
        long connectTimeoutMs;
        long handshakeTimeoutMs;
        long heartbeatIntervalMs;
        long heartbeatTimeoutMs;
        int maxFrameBytes;

        Components(WireSettings s) {
            secretOrNull = s.secretOrNull();
            tlsOrNull = s.tlsOrNull();
            tlsNames = s.tlsNames();
            sealFramesOnLoopback = s.sealFramesOnLoopback();
            connectTimeoutMs = s.connectTimeoutMs();
            handshakeTimeoutMs = s.handshakeTimeoutMs();
            heartbeatIntervalMs = s.heartbeatIntervalMs();
            heartbeatTimeoutMs = s.heartbeatTimeoutMs();
            maxFrameBytes = s.maxFrameBytes();
        }
    }

    /** The name {@code group}'s certificate must carry, if known. */
    Optional<String> tlsName(String group) {
        return Optional.ofNullable(tlsNames.get(group));
    }

    @Override
    public String toString() {
        // Never print the secret itself.
        return "WireSettings[localGroup=" + localGroup + ", fingerprint=0x" + Long.toHexString(fingerprint)
                + ", secret=" + (secretOrNull == null ? "none" : "set") + ", tls=" + tlsOrNull
                + ", tlsNames=" + tlsNames + ", sealFramesOnLoopback=" + sealFramesOnLoopback
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
