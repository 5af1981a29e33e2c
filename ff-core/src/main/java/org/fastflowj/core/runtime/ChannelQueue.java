package org.fastflowj.core.runtime;

import static org.jctools.queues.atomic.AtomicQueueUtil.calcCircularRefElementOffset;
import static org.jctools.queues.atomic.AtomicQueueUtil.lvRefElement;

import org.jctools.queues.atomic.SpscAtomicArrayQueue;

/**
 * JCTools' bounded SPSC queue plus one producer-side question: "are at least n slots free?", answered
 * from the buffer slot n-1 ahead of the producer index instead of from the consumer index. A producer
 * waiting for room asks it in a loop; reading the consumer index there would pull the cache line the
 * consumer writes on every poll, and slow the consumer it waits for. The slot it reads instead is one
 * the consumer reaches only later (the same look-ahead trick JCTools' own offer uses).
 *
 * <p>The {@code org.jctools.queues.atomic} variant: the plain one calls {@code sun.misc.Unsafe}, which JDK 24
 * and later warn about on stderr (ff-bench's {@code QueueHandOff} measures both).
 *
 * <p>Threading: {@link #hasFreeSlots} by the producer only.
 */
final class ChannelQueue extends SpscAtomicArrayQueue<Object> {
    ChannelQueue(int capacity) {
        super(capacity);
    }

    /**
     * Producer only: at least {@code n} (1..capacity) slots are free. Slot {@code p + n - 1} holds the
     * element {@code capacity} places before it until the consumer takes it and nulls the slot (a
     * release store, read here with acquire), so a null there means at most {@code capacity - n} items
     * are queued.
     */
    boolean hasFreeSlots(int n) {
        long p = currentProducerIndex();
        return lvRefElement(buffer, calcCircularRefElementOffset(p + n - 1, mask)) == null;
    }
}
