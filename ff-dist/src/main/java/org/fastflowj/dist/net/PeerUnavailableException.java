package org.fastflowj.dist.net;

/**
 * The peer's endpoint did not accept a TCP connection before the connect timeout ran out (it was not
 * started, crashed, or is unreachable).
 *
 * <p>Threading: immutable once thrown.
 */
public final class PeerUnavailableException extends PeerException {
    private static final long serialVersionUID = 1L;

    public PeerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
