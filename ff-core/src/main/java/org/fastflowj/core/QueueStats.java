package org.fastflowj.core;

/**
 * The fill of one channel between two node threads when the statistics were read: the items its
 * producer queued and its consumer has not taken yet, read from the channel's producer and consumer
 * indices (not derived from the nodes' counters). An end-of-stream mark waiting behind the items takes
 * a slot and counts as one.
 *
 * @param from the producing node's name
 * @param to the consuming node's name
 * @param feedback whether the channel carries items back to an earlier stage
 * @param queued items waiting in the channel
 * @param capacity items the channel holds before its producer waits, or -1 for an unbounded channel
 */
public record QueueStats(String from, String to, boolean feedback, long queued, long capacity) {
    /** {@code queued / capacity}, from 0 to 1; 0 for an unbounded channel. */
    public double fill() {
        return capacity <= 0 ? 0 : Math.min(1.0, (double) queued / capacity);
    }
}
