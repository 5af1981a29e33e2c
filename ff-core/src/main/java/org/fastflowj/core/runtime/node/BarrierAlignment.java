package org.fastflowj.core.runtime.node;

import java.util.Arrays;
import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.spi.CheckpointBarrier;

/**
 * A node's wait for one checkpoint's barrier on each of its open forward inputs. Aligned (exactly once),
 * an input whose barrier came is blocked (its {@link SpscChannel.Intake} says so, so no gate takes from
 * it and no wait counts its items) until the last barrier comes; unaligned (at least once), it is only
 * counted. Then the node snapshots and sends the barrier on, and the inputs open again. An input that
 * ends meanwhile stands for its barrier: everything it will ever give came before its end, as the
 * checkpoint records its producer as ended (Flink's checkpoints after tasks finish).
 *
 * <p>Threading: the node thread.
 */
public final class BarrierAlignment {
    /** What the node does once aligned: snapshot, tell the coordinator, send the barrier on. */
    interface Aligned {
        void checkpoint(CheckpointBarrier barrier, long alignmentNanos) throws Exception;
    }

    private final InputChannels in;
    private final Aligned aligned;
    private final boolean blocks;
    /** The barrier of the checkpoint under alignment; null: none. */
    private CheckpointBarrier current;
    /** The forward inputs whose barrier of {@link #current} came, by index, and how many. */
    private final boolean[] arrivedFrom;

    private int arrived;
    private long firstNanos;

    BarrierAlignment(InputChannels in, Aligned aligned, boolean blocks) {
        this.in = in;
        this.aligned = aligned;
        this.blocks = blocks;
        this.arrivedFrom = new boolean[in.forwardInputs];
    }

    /** The barrier taken from forward input {@code index}, channel {@code ch}. */
    void barrier(SpscChannel ch, int index, CheckpointBarrier barrier) throws Exception {
        if (current == null || barrier.id() != current.id()) {
            reopen(); // an older checkpoint given up upstream: this one supersedes it
            current = barrier;
            arrived = 0;
            Arrays.fill(arrivedFrom, false);
            firstNanos = System.nanoTime();
        }
        arrivedFrom[index] = true;
        arrived++;
        if (arrived < in.liveForward) {
            if (blocks) {
                ch.intake = SpscChannel.Intake.BLOCKED;
                in.releaseHoldsIfStuck(); // a held input may be the one whose barrier is still to come
            }
            return;
        }
        complete(barrier);
    }

    private void complete(CheckpointBarrier barrier) throws Exception {
        long alignment = System.nanoTime() - firstNanos;
        reopen();
        current = null;
        arrived = 0;
        Arrays.fill(arrivedFrom, false);
        aligned.checkpoint(barrier, alignment);
    }

    /**
     * Forward input {@code index} ended (its EOS taken; {@code in.liveForward} counts it out already).
     * Under alignment, an input whose barrier had come (unaligned: it was not blocked) counts out of the
     * barriers as out of the live inputs; one whose barrier had not may have been the last still to come.
     */
    void inputEnded(int index) throws Exception {
        if (arrivedFrom[index]) {
            arrivedFrom[index] = false;
            arrived--;
        }
        if (arrived > 0 && arrived >= in.liveForward) {
            complete(current);
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
