package org.fastflowj.dist.net;

/**
 * The peer answered but refused this group (wrong secret, different program, unknown group...). Final:
 * retrying cannot help, so {@link Transport#connect} throws it at once.
 *
 * <p>Threading: immutable once thrown.
 */
public final class PeerRefusedException extends PeerException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    public PeerRefusedException(String message, String reason) {
        super(message);
        this.reason = reason;
    }

    /** The reason exactly as the peer sent it in its REFUSE frame. */
    public String reason() {
        return reason;
    }
}
