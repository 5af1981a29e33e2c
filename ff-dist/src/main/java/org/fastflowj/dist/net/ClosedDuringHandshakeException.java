package org.fastflowj.dist.net;

/**
 * The peer closed the connection after its CHALLENGE without refusing it (a refusal comes as a REFUSE
 * frame): a group whose previous run's transport is closing accepted the connection meant for its next
 * run, or the group went down mid-handshake. {@link Connector} retries until the connect timeout, as it
 * does for a refused TCP connect.
 *
 * <p>Threading: immutable once thrown.
 */
final class ClosedDuringHandshakeException extends PeerException {
    private static final long serialVersionUID = 1L;

    ClosedDuringHandshakeException(String message) {
        super(message);
    }
}
