package org.fastflowj.dist.net;

/**
 * The peer closed a new connection before its CHALLENGE, at once: it is at its cap of connections in
 * their handshake (a flood of strangers, or a restart). {@link Connector} retries until the connect
 * timeout, as it does for a refused TCP connect.
 *
 * <p>Threading: immutable once thrown.
 */
final class ClosedBeforeChallengeException extends PeerException {
    private static final long serialVersionUID = 1L;

    ClosedBeforeChallengeException(String message) {
        super(message);
    }
}
