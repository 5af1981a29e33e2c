package org.fastflowj.core.runtime.queue;

import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.SpscArrayQueue;
import org.jctools.queues.SpscUnboundedArrayQueue;
import org.jctools.queues.atomic.SpscAtomicArrayQueue;
import org.jctools.queues.atomic.SpscUnboundedAtomicArrayQueue;

/**
 * The single-producer single-consumer queues of the run-time, chosen once per JVM by its version. Up to
 * JDK 23, JCTools' {@code sun.misc.Unsafe} queues: their plain memory accesses make one hand-off cheaper
 * (ff-bench's {@code QueueHandOff} and {@code PipelineThroughput} compare the families). From JDK 24 on, where every use of
 * {@code Unsafe}'s memory access prints a warning on stderr and a later JDK will refuse it, their
 * {@code org.jctools.queues.atomic} twins, with the same semantics. Only one family is ever loaded in a
 * JVM, so the call sites stay monomorphic.
 */
public final class SpscQueues {
    /** Whether this JVM uses the {@code Unsafe}-free queues. */
    public static final boolean UNSAFE_FREE = Runtime.version().feature() >= 24;

    private SpscQueues() {}

    /** A bounded queue of at least {@code capacity} slots (a power of two). */
    public static <E> MessagePassingQueue<E> bounded(int capacity) {
        return UNSAFE_FREE ? new SpscAtomicArrayQueue<>(capacity) : new SpscArrayQueue<>(capacity);
    }

    /** An unbounded queue growing by chunks of {@code chunkSize} slots. */
    public static <E> MessagePassingQueue<E> unbounded(int chunkSize) {
        return UNSAFE_FREE ? new SpscUnboundedAtomicArrayQueue<>(chunkSize) : new SpscUnboundedArrayQueue<>(chunkSize);
    }

    /** A channel's bounded queue: {@link #bounded} that also answers {@link ChannelQueue#hasFreeSlots}. */
    public static ChannelQueue channel(int capacity) {
        return UNSAFE_FREE ? new AtomicChannelQueue(capacity) : new UnsafeChannelQueue(capacity);
    }
}
