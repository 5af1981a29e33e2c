package org.fastflowj.core.runtime.channel;

import static org.fastflowj.core.runtime.channel.Parker.LONG;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.fastflowj.core.NodeStats;

/**
 * A thread at an end of {@link SpscChannel}s: a node's {@link org.fastflowj.core.runtime.node.NodeRunner} or a bridge's {@link
 * BridgeRunner}. The thread at a channel's other end reads its park state and wakes it through this
 * {@link Parker}; the executor starts it, names its thread, interrupts it on cancellation and reads its
 * statistics.
 *
 * <p>Threading: {@link #run} on its own thread; {@link #stats} from any thread (the counters are plain
 * fields of that thread, exact once it ended).
 */
public abstract class ChannelEnd extends ParkerPadAfter implements Runnable {
    private static final VarHandle INPUT_WAITS;

    static {
        try {
            INPUT_WAITS = MethodHandles.lookup().findVarHandle(ChannelEnd.class, "inputWaits", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The vertex's name, which its thread takes. */
    public final String name;
    /** Its thread's run, set by the executor before any runner starts: what cancellation interrupts. */
    public volatile NodeThreads.Run threadRun;
    /**
     * How many times it began to wait for input with nothing to take ({@link #noteInputWait}, {@link
     * #inputWaits()}). A long, not an int: an int could take a 4-byte hole next to the park state, which
     * other threads read on every item.
     */
    private long inputWaits;

    public ChannelEnd(String name) {
        this.name = name;
    }

    /**
     * Counts a wait for input that found nothing to take: once per wait, never per item. Its own thread
     * is the only writer, so an opaque store suffices (no fence on the wait path); a reader sees it
     * soon, which is all a bridge that feeds it needs to tell a worker that waited for an item from one
     * still busy when it came.
     */
    public final void noteInputWait() {
        INPUT_WAITS.setOpaque(this, inputWaits + 1);
    }

    /** How many times it began to wait for input; any thread (opaque read, see {@link #noteInputWait}). */
    public final int inputWaits() {
        return (int) (long) INPUT_WAITS.getOpaque(this); // wraps: only a change between two looks counts
    }

    /** Its input channels (forward first, then feedback), once wired. */
    public abstract SpscChannel[] inputs();

    /** Every channel it takes from (its inputs, an ordered collector's order channel); null until wired. */
    protected abstract SpscChannel[] consumed();

    /** Every channel it offers to (its outputs, an ordered emitter's order channel); null until wired. */
    protected abstract SpscChannel[] produced();

    /**
     * One failed check of a wait of this thread, by its idle strategy (reset when the wait began): a spin,
     * a yield, or a park. Parking, it first wakes the neighbours a skipped fence may have left asleep
     * ({@link #wakeNeighboursBeforePark}), then announces a wait of {@code kind} on {@code target} (null:
     * any channel), re-checks {@code arrived} and parks at most {@code maxParkNanos} (see {@link Parker}).
     * {@code arrived} answers true once the run is cancelled too.
     */
    public final void pause(
            IdleStrategy idler, int kind, SpscChannel target, WaitCondition arrived, long maxParkNanos) {
        if (!idler.nextStepParks()) {
            return;
        }
        wakeNeighboursBeforePark();
        park(idler.longPark() ? kind | LONG : kind, target, arrived, Math.min(idler.parkNanos(), maxParkNanos));
        idler.parked();
        // An interrupt left set would make every later park return at once (a hidden busy loop);
        // cancellation, the only interrupt the run-time sends, is seen through RunControl.cancelled.
        Thread.interrupted();
    }

    /**
     * Before this thread parks, or waits on something outside its channels: a full fence, then the
     * consumers of its outputs parked with items queued, and the producers of its inputs parked for room
     * it made, are woken. Without it a neighbour that parked before the last few items (or takes) waits
     * out its park time-out for them.
     */
    public final void wakeNeighboursBeforePark() {
        VarHandle.fullFence(); // what this thread published, before the neighbours' park states are read
        for (SpscChannel ch : produced()) {
            ch.wakeConsumerIfItems();
        }
        for (SpscChannel ch : consumed()) {
            ch.wakeProducerIfRoom();
        }
    }

    /**
     * The thread's end, once (the caller keeps it to once; before it was wired it does nothing): every
     * channel it offers to is marked done and every one it takes from gone, then, after one fence, the
     * threads at their other ends are woken, so a consumer stops waiting for it and a producer stops
     * feeding it; the on-demand dispatches of its inputs hear it ended.
     */
    public final void endChannels() {
        SpscChannel[] produced = produced();
        SpscChannel[] consumed = consumed();
        if (produced == null || consumed == null) {
            return;
        }
        for (SpscChannel ch : produced) {
            ch.producerDone = true;
        }
        for (SpscChannel ch : consumed) {
            ch.consumerGone = true;
        }
        VarHandle.fullFence(); // every end mark before any wake-up: a woken neighbour sees them all
        for (SpscChannel ch : produced) {
            ch.consumer.wakeAnyway();
        }
        for (SpscChannel ch : consumed) {
            ch.producer.wakeAnyway();
            if (ch.dispatch != null) {
                ch.dispatch.consumerEnded();
            }
        }
    }

    /** Whether what it sends may be {@link Chunk}s, which the consumer unrolls. */
    public abstract boolean sendsChunks();

    public abstract NodeStats stats();
}
