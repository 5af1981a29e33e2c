package org.fastflowj.dist.run.link;

/** A peer group's connection broke or the peer failed; the message names the peer and its address. */
public final class PeerLostException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PeerLostException(String message) {
        super(message);
    }
}
