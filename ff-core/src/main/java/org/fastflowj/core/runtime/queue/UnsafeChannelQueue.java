package org.fastflowj.core.runtime.queue;

import static org.jctools.util.UnsafeRefArrayAccess.calcCircularRefElementOffset;
import static org.jctools.util.UnsafeRefArrayAccess.lvRefElement;

import org.jctools.queues.SpscArrayQueue;

/** {@link ChannelQueue} on JCTools' {@code Unsafe} queue (JDK 23 and older: see {@link SpscQueues}). */
final class UnsafeChannelQueue extends SpscArrayQueue<Object> implements ChannelQueue {
    UnsafeChannelQueue(int capacity) {
        super(capacity);
    }

    @Override
    public boolean hasFreeSlots(int n) {
        long p = currentProducerIndex();
        return lvRefElement(buffer, calcCircularRefElementOffset(p + n - 1, mask)) == null;
    }
}
