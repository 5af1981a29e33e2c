package org.fastflowj.core.runtime;

import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.SpscArrayQueue;
import org.jctools.queues.SpscUnboundedArrayQueue;

/**
 * One edge of the graph: a JCTools single-producer single-consumer queue plus the two threads at its
 * ends, so each side can wake the other. Exactly one thread offers and exactly one thread polls.
 *
 * <p>Threading: {@code offer}/{@code hasRoom} by the producer, {@code poll} by the consumer, the rest by
 * either. {@code consumerGone} and {@code producerDone} are written once, by their owner, and read by the
 * other side in its slow paths; {@code endSeen} is the consumer's own.
 */
final class SpscChannel {
    private static final int UNBOUNDED_CHUNK = 1024;

    final MessagePassingQueue<Object> queue;
    /** Items the producer may have queued: the run's capacity, or a farm's on-demand slots. */
    final int limit;
    /** The consumer wakes a producer blocked on this channel once it holds at most this many items. */
    final int lowWater;
    /** A producer wakes a consumer parked on this channel once it holds this many items (or it idles). */
    int wakeBatch = 1;
    private final boolean softLimit;
    final boolean feedback;
    final String description;

    NodeRunner producer;
    NodeRunner consumer;
    /** The consumer ended: items offered from now on are dropped. */
    volatile boolean consumerGone;
    /** The producer ended: nothing more will be offered. */
    volatile boolean producerDone;
    /** Consumer-local: EOS was taken from this channel. */
    boolean endSeen;
    /** Producer-local: the producer noticed {@link #consumerGone}. */
    boolean goneSeen;

    private SpscChannel(MessagePassingQueue<Object> queue, int limit, boolean feedback, String description) {
        this.queue = queue;
        this.limit = limit;
        this.softLimit = limit != Integer.MAX_VALUE && limit != queue.capacity();
        this.lowWater = limit == Integer.MAX_VALUE ? Integer.MAX_VALUE : limit / 2;
        this.feedback = feedback;
        this.description = description;
    }

    static SpscChannel bounded(int capacity, boolean feedback, String description) {
        return new SpscChannel(new SpscArrayQueue<>(Math.max(capacity, 4)), capacity, feedback, description);
    }

    static SpscChannel unbounded(boolean feedback, String description) {
        return new SpscChannel(new SpscUnboundedArrayQueue<>(UNBOUNDED_CHUNK), Integer.MAX_VALUE, feedback, description);
    }

    /** Producer only. False when full (never for an unbounded channel). */
    boolean offer(Object item) {
        return (!softLimit || queue.size() < limit) && queue.offer(item);
    }

    /** Consumer only. Null when empty. */
    Object poll() {
        return queue.poll();
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** Producer side: at least one free slot (a stale view can only under-report room). */
    boolean hasRoom() {
        return queue.size() < limit;
    }

    /** Producer side: enough items queued to be worth waking a parked consumer. */
    boolean worthWaking() {
        return wakeBatch <= 1 || queue.size() >= wakeBatch;
    }

    /** Consumer side: drained enough to wake a producer blocked on it. */
    boolean belowLowWater() {
        return queue.size() <= lowWater;
    }

    @Override
    public String toString() {
        return description;
    }
}
