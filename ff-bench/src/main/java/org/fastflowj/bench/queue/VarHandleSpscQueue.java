package org.fastflowj.bench.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jctools.queues.MessagePassingQueue;

/**
 * A bounded single-producer single-consumer array queue on {@link VarHandle}s only (no
 * {@code sun.misc.Unsafe}): FastFlow's SWSR buffer, where a slot's null-ness is the hand-off, with the
 * producer's look-ahead of JCTools' {@code SpscArrayQueue} so that it reads a slot the consumer frees
 * only once every {@code lookAheadStep} offers. The indices are kept for {@link #size()} only; neither
 * side reads the other's index on the hot path.
 *
 * <p>Memory ordering: the producer publishes an element with a release store into its slot, so a
 * consumer that reads the slot with acquire sees the element fully built; the consumer frees the slot
 * with a release store of null, so a producer that reads null (acquire) may overwrite it. Each index is
 * written by its owner only (release, for {@code size()} readers on the other side). Every VarHandle
 * call passes the receiver as the class that declares the field, so the call site's type matches the
 * handle's exactly and compiles to a plain access.
 */
public final class VarHandleSpscQueue<E> extends VarHandleSpscQueueConsumerFields implements MessagePassingQueue<E> {
    private static final int MAX_LOOK_AHEAD_STEP = 4096;

    private final int lookAheadStep;

    public VarHandleSpscQueue(int requestedCapacity) {
        super(requestedCapacity);
        this.lookAheadStep = Math.min(buffer.length / 4, MAX_LOOK_AHEAD_STEP);
    }

    @Override
    public boolean offer(E e) {
        if (e == null) {
            throw new NullPointerException("a queue element");
        }
        long p = producerIndex;
        if (p >= producerLimit && !hasRoomAt(p)) {
            return false;
        }
        SLOT.setRelease(buffer, (int) p & mask, e);
        PRODUCER_INDEX.setRelease((VarHandleSpscQueueProducerFields) this, p + 1);
        return true;
    }

    private boolean hasRoomAt(long p) {
        long lookAhead = p + lookAheadStep;
        if (SLOT.getAcquire(buffer, (int) lookAhead & mask) == null) {
            producerLimit = lookAhead;
            return true;
        }
        return SLOT.getAcquire(buffer, (int) p & mask) == null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        long c = consumerIndex;
        int slot = (int) c & mask;
        Object e = SLOT.getAcquire(buffer, slot);
        if (e == null) {
            return null;
        }
        SLOT.setRelease(buffer, slot, null);
        CONSUMER_INDEX.setRelease((VarHandleSpscQueueConsumerFields) this, c + 1);
        return (E) e;
    }

    /** Either side: an approximation while the other side moves, exact when it is quiet. */
    @Override
    public int size() {
        long c = (long) CONSUMER_INDEX.getAcquire((VarHandleSpscQueueConsumerFields) this);
        long p = (long) PRODUCER_INDEX.getAcquire((VarHandleSpscQueueProducerFields) this);
        return (int) Math.max(0, Math.min(p - c, buffer.length));
    }

    @Override
    public int capacity() {
        return buffer.length;
    }

    /** Consumer only: takes up to {@code limit} items. */
    @Override
    public int drain(MessagePassingQueue.Consumer<E> consumer, int limit) {
        int taken = 0;
        for (E e; taken < limit && (e = poll()) != null; taken++) {
            consumer.accept(e);
        }
        return taken;
    }

    /** Producer only: offers up to {@code limit} items while there is room. */
    @Override
    public int fill(MessagePassingQueue.Supplier<E> supplier, int limit) {
        int given = 0;
        for (; given < limit; given++) {
            long p = producerIndex;
            if (p >= producerLimit && !hasRoomAt(p)) {
                break;
            }
            SLOT.setRelease(buffer, (int) p & mask, supplier.get());
            PRODUCER_INDEX.setRelease((VarHandleSpscQueueProducerFields) this, p + 1);
        }
        return given;
    }

    @Override
    @SuppressWarnings("unchecked")
    public E peek() {
        return (E) SLOT.getAcquire(buffer, (int) consumerIndex & mask);
    }

    @Override
    public E relaxedPeek() {
        return peek();
    }

    @Override
    public boolean relaxedOffer(E e) {
        return offer(e);
    }

    @Override
    public E relaxedPoll() {
        return poll();
    }

    @Override
    public boolean isEmpty() {
        return size() == 0;
    }

    /** Consumer only. */
    @Override
    public void clear() {
        while (poll() != null) {
            // drop
        }
    }

    @Override
    public int drain(MessagePassingQueue.Consumer<E> consumer) {
        return drain(consumer, buffer.length);
    }

    @Override
    public int fill(MessagePassingQueue.Supplier<E> supplier) {
        return fill(supplier, buffer.length);
    }

    @Override
    public void drain(MessagePassingQueue.Consumer<E> consumer, WaitStrategy wait, ExitCondition exit) {
        for (int idle = 0; exit.keepRunning(); ) {
            idle = drain(consumer, buffer.length) == 0 ? wait.idle(idle) : 0;
        }
    }

    @Override
    public void fill(MessagePassingQueue.Supplier<E> supplier, WaitStrategy wait, ExitCondition exit) {
        for (int idle = 0; exit.keepRunning(); ) {
            idle = fill(supplier, buffer.length) == 0 ? wait.idle(idle) : 0;
        }
    }
}

/** The buffer, then padding, so that the producer's fields share no cache line with the array header. */
@SuppressWarnings("unused")
abstract class VarHandleSpscQueueBuffer {
    static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    final Object[] buffer;
    final int mask;

    private long b00, b01, b02, b03, b04, b05, b06, b07, b10, b11, b12, b13, b14, b15, b16, b17;

    VarHandleSpscQueueBuffer(int requestedCapacity) {
        if (requestedCapacity < 2 || requestedCapacity > (1 << 30)) {
            throw new IllegalArgumentException("capacity " + requestedCapacity + " is not in 2..2^30");
        }
        int capacity = Integer.highestOneBit(requestedCapacity - 1) << 1;
        this.buffer = new Object[capacity];
        this.mask = capacity - 1;
    }
}

/** Written by the producer only; padded away from the consumer's index. */
@SuppressWarnings("unused")
abstract class VarHandleSpscQueueProducerFields extends VarHandleSpscQueueBuffer {
    static final VarHandle PRODUCER_INDEX;

    static {
        try {
            PRODUCER_INDEX = MethodHandles.lookup()
                    .findVarHandle(VarHandleSpscQueueProducerFields.class, "producerIndex", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    long producerIndex;
    long producerLimit;

    private long p00, p01, p02, p03, p04, p05, p06, p07, p10, p11, p12, p13, p14, p15, p16, p17;

    VarHandleSpscQueueProducerFields(int requestedCapacity) {
        super(requestedCapacity);
    }
}

/** Written by the consumer only; padded away from whatever the heap puts after the queue. */
@SuppressWarnings("unused")
abstract class VarHandleSpscQueueConsumerFields extends VarHandleSpscQueueProducerFields {
    static final VarHandle CONSUMER_INDEX;

    static {
        try {
            CONSUMER_INDEX = MethodHandles.lookup()
                    .findVarHandle(VarHandleSpscQueueConsumerFields.class, "consumerIndex", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    long consumerIndex;

    private long c00, c01, c02, c03, c04, c05, c06, c07, c10, c11, c12, c13, c14, c15, c16, c17;

    VarHandleSpscQueueConsumerFields(int requestedCapacity) {
        super(requestedCapacity);
    }
}
