package org.fastflowj.dist.run;

/** A batch from a peer group does not fit this program's graph; the message names the peer. */
public final class CorruptBatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CorruptBatchException(String message) {
        super(message);
    }
}
