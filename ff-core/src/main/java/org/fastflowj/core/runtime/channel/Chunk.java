package org.fastflowj.core.runtime.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A run of items a {@link org.fastflowj.core.runtime.bridge.BridgeTask} hands to one output channel in a single slot: the consumer's
 * run-time unrolls it, so the consumer's node sees each item on its own, with the chunk's channel as
 * {@code inputChannel()}, exactly as if the items had been sent one by one. It saves one channel hand-off
 * per item where items arrive in runs anyway (a received batch).
 *
 * <p>A chunk takes one slot of a channel's capacity however many items it holds, so a bridge bounds what
 * it puts in one (items and bytes). Only a bridge sends chunks. To an ordered farm's collector a chunk
 * holds the outputs of one task at most: the bridge ends it before the task's mark, which it puts on the
 * channel after the chunk ({@link org.fastflowj.core.runtime.bridge.BridgeChannels#offerTaskDone}). A consumer unrolls chunks only on channels
 * from a bridge (its runner picks that loop when wired), so one sent by an ordinary node arrives as a
 * plain item.
 *
 * <p>The run-time also gathers the items a node sends to a bridge into chunks ({@link ChannelGathering}).
 *
 * <p>Threading: filled by the bridge thread, then handed over through the channel (whose offer publishes
 * it) and read only by the consumer; a gathered chunk is read while it fills (see {@link #sizeAcquire}).
 */
public final class Chunk {
    private static final VarHandle SIZE;

    static {
        try {
            SIZE = MethodHandles.lookup().findVarHandle(Chunk.class, "size", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public final Object[] items;
    public int size;

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

    /**
     * Producer side of a {@link ChannelGathering}: appends one item (there is room) with a release store of
     * the size, so a consumer that reads the size with {@link #sizeAcquire} sees every item below it.
     */
    void appendReleasing(Object item) {
        int n = size;
        items[n] = item;
        SIZE.setRelease(this, n + 1);
    }

    /** Consumer side of a {@link ChannelGathering}: the items appended so far, all visible. */
    int sizeAcquire() {
        return (int) SIZE.getAcquire(this);
    }

    public int size() {
        return size;
    }

    public boolean isFull() {
        return size == items.length;
    }
}
