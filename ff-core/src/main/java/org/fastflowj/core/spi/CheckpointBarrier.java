package org.fastflowj.core.spi;

/**
 * A checkpoint's barrier on a channel: a control value like EOS (never shown to a node), one object per
 * checkpoint and source, so nothing is allocated per item.
 */
public final class CheckpointBarrier extends Sentinel {
    private final long id;

    public CheckpointBarrier(long id) {
        super("BARRIER");
        this.id = id;
    }

    /** The checkpoint's number. */
    public long id() {
        return id;
    }

    @Override
    public String toString() {
        return "BARRIER " + id;
    }
}
