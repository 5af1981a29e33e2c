package org.fastflowj.core.runtime.queue;

import static org.jctools.queues.atomic.AtomicQueueUtil.calcCircularRefElementOffset;
import static org.jctools.queues.atomic.AtomicQueueUtil.lvRefElement;

import org.jctools.queues.atomic.SpscAtomicArrayQueue;

/** {@link ChannelQueue} on JCTools' {@code Unsafe}-free queue (JDK 24 and later: see {@link SpscQueues}). */
final class AtomicChannelQueue extends SpscAtomicArrayQueue<Object> implements ChannelQueue {
    AtomicChannelQueue(int capacity) {
        super(capacity);
    }

    @Override
    public boolean hasFreeSlots(int n) {
        long p = currentProducerIndex();
        return lvRefElement(buffer, calcCircularRefElementOffset(p + n - 1, mask)) == null;
    }
}
