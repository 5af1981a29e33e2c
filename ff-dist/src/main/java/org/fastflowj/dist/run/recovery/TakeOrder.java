package org.fastflowj.dist.run.recovery;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.fastflowj.core.runtime.recovery.TakeRecorder;

/**
 * The order in which a recoverable all-to-all's remote R-Worker took its items, for the sender that carries
 * its outputs home ({@link org.fastflowj.core.AllToAll#recoverable()}). Its first node records, per item
 * taken, the input channel (the L-Worker that sent it) and the item's sequence on that channel; the R-Worker
 * answers one output per item, in order, so the sender's {@link #next} for its {@code k}-th output is the
 * {@code k}-th item taken: the tag that output carries on the wire ({@link #tag}).
 *
 * <p>The sequence needs no travel from the L-Worker's side: a channel is FIFO, so the {@code s}-th item the
 * R-Worker takes from channel {@code i} is the {@code s}-th item L-Worker {@code i} sent it, the one its
 * {@link RecoveryLedger} holds at sequence {@code s}.
 *
 * <p>Threading: {@link #took} on the R-Worker's first node's thread (one producer), {@link #next} on the
 * sender's (one consumer): a single-producer single-consumer ring of longs (FastFlow's SWSR buffer: a slot
 * is empty at 0, written by the producer only when empty, cleared by the consumer after reading, each with
 * a release store read by an acquire load). A tag is recorded before the R-Worker's svc sees its item, so
 * before the output leaves on a channel whose hand-off (release, acquire) makes it visible to the sender.
 * When the ring is nearly full the producer moves to one twice its size and leaves a {@link #JUMP} behind;
 * the ring holds the outputs still inside the R-Worker and on their way to the sender, so it stops growing
 * at that bound and allocates nothing per item after.
 */
public final class TakeOrder implements TakeRecorder {
    /** Bits of a tag below the channel: a sequence of up to 2^40 items per channel. */
    public static final int SEQUENCE_BITS = 40;

    public static final long SEQUENCE_MASK = (1L << SEQUENCE_BITS) - 1;
    private static final long JUMP = -1;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final String worker;
    /** Per input channel: items taken so far (producer only). */
    private final long[] taken;

    private Ring producerRing = new Ring(256);
    private int producerIndex;

    private Ring consumerRing = producerRing;
    private int consumerIndex;

    /** A ring, and the one its producer moved to when it left a {@link #JUMP} in it. */
    private static final class Ring {
        final long[] slots;
        /** Written once, before the JUMP that points the consumer at it (release), read after it (acquire). */
        Ring next;

        Ring(int capacity) {
            slots = new long[capacity];
        }
    }

    /**
     * @param worker the R-Worker, for messages ({@code "R-Worker 2 (ff-a2a1-R2) of a2a1"})
     * @param channels its first node's forward input channels (one per L-Worker)
     */
    public TakeOrder(String worker, int channels) {
        this.worker = worker;
        this.taken = new long[channels];
    }

    /** The tag of an output: the channel (L-Worker) and sequence of the item it answers. */
    public static long tag(int channel, long sequence) {
        return ((long) channel << SEQUENCE_BITS) | sequence;
    }

    public static int channelOf(long tag) {
        return (int) (tag >>> SEQUENCE_BITS);
    }

    public static long sequenceOf(long tag) {
        return tag & SEQUENCE_MASK;
    }

    // ---- the R-Worker's first node ----

    @Override
    public void took(int channel, int items) {
        for (int k = 0; k < items; k++) {
            offer(tag(channel, taken[channel]++) + 1); // + 1: a slot at 0 is empty
        }
    }

    private void offer(long value) {
        Ring current = producerRing;
        long[] ring = current.slots;
        int mask = ring.length - 1;
        int index = producerIndex;
        // The slot after this one stays free for a JUMP: when it is taken, the ring is (nearly) full.
        if ((long) SLOT.getAcquire(ring, (index + 1) & mask) != 0) {
            Ring bigger = new Ring(ring.length * 2);
            bigger.slots[0] = value;
            current.next = bigger;
            SLOT.setRelease(ring, index, JUMP); // publishes the next ring and the value in it
            producerRing = bigger;
            producerIndex = 1;
            return;
        }
        SLOT.setRelease(ring, index, value);
        producerIndex = (index + 1) & mask;
    }

    // ---- the sender of the R-Worker's outputs ----

    /**
     * The tag for the R-Worker's next output.
     *
     * @throws IllegalStateException if it took no item that is not answered yet: it sent more outputs than
     *     it took items
     */
    public long next() {
        for (; ; ) {
            long[] ring = consumerRing.slots;
            int index = consumerIndex;
            long value = (long) SLOT.getAcquire(ring, index);
            if (value == 0) {
                throw new IllegalStateException(worker + " sent an output for no item it took: a recoverable"
                        + " all-to-all's R-Worker must send exactly one output per item (AllToAll.recoverable())");
            }
            if (value == JUMP) {
                consumerRing = consumerRing.next; // written before the JUMP, read after it (acquire)
                consumerIndex = 0;
                continue;
            }
            SLOT.setRelease(ring, index, 0L);
            consumerIndex = (index + 1) & (ring.length - 1);
            return value - 1;
        }
    }

    @Override
    public String toString() {
        return worker;
    }
}
