package org.fastflowj.core.checkpoint;

import java.io.IOException;

/** A checkpoint that does not read back whole and checked: it is never restored. */
public final class CorruptCheckpointException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptCheckpointException(String message) {
        super(message);
    }
}
