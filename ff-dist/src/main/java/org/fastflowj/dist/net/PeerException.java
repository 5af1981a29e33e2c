package org.fastflowj.dist.net;

/**
 * A connection to another group could not be made or did not survive. Unchecked: the layer above turns
 * it into the failure of the whole run, naming the group it came from.
 *
 * <p>Threading: immutable once thrown.
 */
public class PeerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PeerException(String message) {
        super(message);
    }

    public PeerException(String message, Throwable cause) {
        super(message, cause);
    }
}
