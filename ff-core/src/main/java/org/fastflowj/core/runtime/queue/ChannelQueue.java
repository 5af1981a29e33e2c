package org.fastflowj.core.runtime.queue;

import org.jctools.queues.MessagePassingQueue;

/**
 * A channel's bounded SPSC queue plus one producer-side question: "are at least n slots free?", answered
 * from the buffer slot n-1 ahead of the producer index instead of from the consumer index. A producer
 * waiting for room asks it in a loop; reading the consumer index there would pull the cache line the
 * consumer writes on every poll, and slow the consumer it waits for. The slot it reads instead is one
 * the consumer reaches only later (the same look-ahead trick JCTools' own offer uses).
 *
 * <p>Made by {@link SpscQueues#channel}: {@link UnsafeChannelQueue} or {@link AtomicChannelQueue}.
 *
 * <p>Threading: {@link #hasFreeSlots} by the producer only.
 */
public interface ChannelQueue extends MessagePassingQueue<Object> {
    /**
     * Producer only: at least {@code n} (1..capacity) slots are free. Slot {@code p + n - 1} holds the
     * element {@code capacity} places before it until the consumer takes it and nulls the slot (a
     * release store, read here with acquire), so a null there means at most {@code capacity - n} items
     * are queued.
     */
    boolean hasFreeSlots(int n);
}
