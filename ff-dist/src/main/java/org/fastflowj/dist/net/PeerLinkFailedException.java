package org.fastflowj.dist.net;

/**
 * A connection failed during or after its handshake: silence beyond the heartbeat timeout, a reset, a
 * corrupt frame, a protocol violation, a TLS failure. The message names the peer and its address.
 *
 * <p>Threading: immutable once thrown.
 */
public final class PeerLinkFailedException extends PeerException {
    private static final long serialVersionUID = 1L;

    public PeerLinkFailedException(String message) {
        super(message);
    }

    public PeerLinkFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
