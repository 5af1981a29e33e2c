package org.fastflowj.dist.run.link;

import org.fastflowj.dist.net.PeerException;

/**
 * A batch or control frame from a peer group breaks the protocol or does not fit this program's graph; the
 * message names the peer. A {@link PeerException}: the run's failure starts at that peer, not here.
 */
public final class CorruptBatchException extends PeerException {
    private static final long serialVersionUID = 1L;

    public CorruptBatchException(String message) {
        super(message);
    }

    public CorruptBatchException(String message, Throwable cause) {
        super(message, cause);
    }
}
