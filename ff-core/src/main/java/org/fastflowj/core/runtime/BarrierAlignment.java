package org.fastflowj.core.runtime;

import org.fastflowj.core.spi.CheckpointBarrier;

/**
 * A node's wait for one checkpoint's barrier on each of its open forward inputs. Aligned (exactly once),
 * an input whose barrier came is blocked (its {@link SpscChannel.Intake} says so, so no gate takes from
 * it and no wait counts its items) until the last barrier comes; unaligned (at least once), it is only
 * counted. Then the node snapshots and sends the barrier on, and the inputs open again. An input that
 * ends meanwhile gives the checkpoint up (its producer ended without the barrier, and an ended node
 * completes no checkpoint): the blocked inputs open again.
 *
 * <p>Threading: the node thread.
 */
final class BarrierAlignment {
    /** What the node does once aligned: snapshot, tell the coordinator, send the barrier on. */
    interface Aligned {
        void checkpoint(CheckpointBarrier barrier, long alignmentNanos) throws Exception;
    }

    private final InputChannels in;
    private final Aligned aligned;
    private final boolean blocks;
    private long checkpoint = -1;
    private int arrived;
    private long firstNanos;

    BarrierAlignment(InputChannels in, Aligned aligned, boolean blocks) {
        this.in = in;
        this.aligned = aligned;
        this.blocks = blocks;
    }

    /** The barrier taken from forward input {@code ch}. */
    void barrier(SpscChannel ch, CheckpointBarrier barrier) throws Exception {
        if (barrier.id() != checkpoint) {
            reopen(); // an older checkpoint given up upstream: this one supersedes it
            checkpoint = barrier.id();
            arrived = 0;
            firstNanos = System.nanoTime();
        }
        arrived++;
        if (arrived < in.liveForward) {
            if (blocks) {
                ch.intake = SpscChannel.Intake.BLOCKED;
                in.releaseHoldsIfStuck(); // a held input may be the one whose barrier is still to come
            }
            return;
        }
        long alignment = System.nanoTime() - firstNanos;
        reopen();
        checkpoint = -1;
        arrived = 0;
        aligned.checkpoint(barrier, alignment);
    }

    /** A forward input ended: a checkpoint under alignment is given up. */
    void inputEnded() {
        if (arrived > 0) {
            reopen();
            checkpoint = -1;
            arrived = 0;
        }
    }

    private void reopen() {
        if (!blocks) {
            return;
        }
        SpscChannel[] inputs = in.inputs;
        for (int i = 0; i < in.forwardInputs; i++) {
            if (inputs[i].intake == SpscChannel.Intake.BLOCKED) {
                inputs[i].intake = SpscChannel.Intake.OPEN;
            }
        }
    }
}
