package org.fastflowj.core.runtime.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.fastflowj.core.spi.Sentinel;
import org.jctools.queues.MessagePassingQueue;

/**
 * Gathers the items of one channel into {@link Chunk}s, one queue slot per chunk, for a consumer that
 * works per item anyway and falls behind its producer (a bridge serializing to another group): it then
 * takes a whole chunk of items per slot, with no per-item queue traffic between the two cores.
 *
 * <p>Nothing waits for a chunk to fill. The chunk being filled is published as {@link #open} when it is
 * started, and a consumer that has taken everything queued takes what is in it so far: a slow stream
 * reaches the consumer item by item, as through a plain channel. Only chunks leave through the queue, so
 * a chunk is sealed (offered) when full or before a control value (EOS, a mark); the consumer skips what
 * it took from it while it was open.
 *
 * <p>Memory ordering: the producer writes an item, then the chunk's size with a release store; the
 * consumer reads the size with acquire, then the items below it. The producer offers a full chunk before
 * it publishes the next as {@code open} (release), and the consumer reads {@code open} (acquire) before it
 * polls the queue: so when that poll finds the queue empty, every chunk older than {@code open} was
 * taken already, and taking from {@code open} keeps the channel's order.
 *
 * <p>Threading: {@link #offer} by the producer only, {@link #poll} by the consumer only; {@link
 * #hasUntaken} by either, and from the producer it may err only towards "yes" (a spare wake-up) unless the
 * consumer is parked, when its fields are quiet and were written before its park state.
 */
public final class ChannelGathering {
    private static final VarHandle OPEN;

    static {
        try {
            OPEN = MethodHandles.lookup().findVarHandle(ChannelGathering.class, "open", Chunk.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int chunkCapacity;

    /** Producer's: the chunk it appends to, until offered. */
    private Chunk filling;
    /** The chunk started last, offered or not; release store by the producer, acquire load by the consumer. */
    @SuppressWarnings("unused") // through OPEN
    private Chunk open;

    /** Consumer's: the chunk it takes items from, how many it took, and the size it last saw. */
    private Chunk current;

    private int taken;
    private int seen;

    ChannelGathering(int chunkCapacity) {
        if (chunkCapacity < 2) {
            throw new IllegalArgumentException("a gathering chunk holds at least 2 items, not " + chunkCapacity);
        }
        this.chunkCapacity = chunkCapacity;
    }

    /** Producer only: appends an item, or queues a control value after the chunk being filled. */
    boolean offer(SpscChannel ch, Object item) {
        if (item instanceof Sentinel) {
            return seal(ch) && ch.offerSlot(item);
        }
        Chunk c = filling;
        if (c == null || c.isFull()) {
            if (c != null && !ch.offerSlot(c)) {
                return false; // the full chunk still waits for a slot: so does this item
            }
            c = new Chunk(chunkCapacity); // per chunk, not per item: a young-generation bump allocation
            filling = c;
            OPEN.setRelease(this, c);
        }
        c.appendReleasing(item);
        if (c.isFull() && ch.offerSlot(c)) {
            filling = null;
        }
        return true;
    }

    /** Producer only: offers the chunk being filled, if any; false if the queue has no slot for it. */
    private boolean seal(SpscChannel ch) {
        Chunk c = filling;
        if (c == null) {
            return true;
        }
        if (!ch.offerSlot(c)) {
            return false;
        }
        filling = null;
        return true;
    }

    /** Consumer only: the next item or control value, or null if there is none yet. */
    Object poll(MessagePassingQueue<Object> queue) {
        for (; ; ) {
            Chunk c = current;
            if (c != null) {
                int t = taken;
                if (t < seen || t < (seen = c.sizeAcquire())) {
                    taken = t + 1;
                    return c.items[t];
                }
            }
            Chunk started = (Chunk) OPEN.getAcquire(this); // before the poll: see the class comment
            Object next = queue.poll();
            if (next instanceof Chunk sealed) {
                if (sealed != c) { // else: the open chunk we took from, now sealed; take the rest
                    take(sealed);
                }
                continue;
            }
            if (next != null) {
                return next; // a control value
            }
            if (started == null || started == c) {
                return null;
            }
            take(started);
        }
    }

    private void take(Chunk c) {
        current = c;
        taken = 0;
        seen = 0;
    }

    /** Items appended and not taken yet, outside the queue (which holds only sealed chunks). */
    boolean hasUntaken() {
        Chunk c = current;
        if (c != null && taken < c.sizeAcquire()) {
            return true;
        }
        Chunk started = (Chunk) OPEN.getAcquire(this);
        return started != null && started != c && started.sizeAcquire() > 0;
    }

    /** Roughly how many items are waiting, for the wake-up batch: the queued chunks taken as full. */
    long waiting(int queuedChunks) {
        long untaken = 0;
        Chunk c = current;
        if (c != null) {
            untaken += Math.max(0, c.sizeAcquire() - taken);
        }
        Chunk started = (Chunk) OPEN.getAcquire(this);
        if (started != null && started != c) {
            untaken += started.sizeAcquire();
        }
        return (long) queuedChunks * chunkCapacity + untaken;
    }
}
