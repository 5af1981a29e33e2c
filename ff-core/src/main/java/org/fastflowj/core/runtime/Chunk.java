package org.fastflowj.core.runtime;

/**
 * A run of items a {@link BridgeNode} hands to one output channel in a single slot: the consumer's
 * run-time unrolls it, so the consumer's node sees each item on its own, with the chunk's channel as
 * {@code inputChannel()}, exactly as if the items had been sent one by one. It saves one channel hand-off
 * per item where items arrive in runs anyway (a received batch).
 *
 * <p>A chunk takes one slot of a channel's capacity however many items it holds, so a bridge bounds what
 * it puts in one (items and bytes). Only a bridge sends chunks, and only to a plain consumer (never an
 * ordered farm's collector, which a bridge cannot feed: a farm is never split across groups).
 *
 * <p>Threading: filled by the bridge thread, then handed over through the channel (whose offer publishes
 * it) and read only by the consumer.
 */
public final class Chunk {
    final Object[] items;
    int size;

    /** An empty chunk for at most {@code capacity} items. */
    public Chunk(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a chunk holds at least 1 item, not " + capacity);
        }
        this.items = new Object[capacity];
    }

    /** Appends an item (never null); false, and nothing added, once the chunk is full. */
    public boolean add(Object item) {
        if (size == items.length) {
            return false;
        }
        items[size++] = item;
        return true;
    }

    public int size() {
        return size;
    }

    public boolean isFull() {
        return size == items.length;
    }
}
