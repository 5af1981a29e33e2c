package org.fastflowj.bench.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.SpmcArrayQueue;

/**
 * One producer hands items to whichever of several consumers asks first, through a JCTools {@link
 * SpmcArrayQueue} of ff-core's default channel capacity: each take is one compare-and-set on the shared
 * consumer index, the least any on-demand hand-out pays (a consumer gets an item only when it is free, so
 * the consumers must agree on every item). A producer that finds the queue full spins a few times, then
 * parks until a consumer has drained it to half, as {@link SpscHandOff.Wait#PARK}; a consumer that finds
 * it empty spins, yields, then parks briefly, unsignalled (the producer refills long before a busy
 * consumer runs dry).
 *
 * <p>Memory ordering: an item's contents, written before {@link #put}, are visible to the consumer that
 * takes it through the queue's release store of the element and the acquire load that claims it.
 *
 * <p>Threading: {@link #put} from one producer thread, {@link #poll} and {@link #take} from any number of
 * consumer threads, {@link #abandon} from any.
 */
public final class SpmcHandOff<T> {
    public static final int CAPACITY = SpscHandOff.CAPACITY;

    private static final int SPINS = 64;
    private static final int SPINS_AND_YIELDS = SPINS + 16;
    private static final int PRODUCER_SPINS = 16;
    private static final long CONSUMER_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** Only a safety net: a parked producer is woken by the consumers (see {@link #wakeProducer}). */
    private static final long PARK_BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final VarHandle PARKED_PRODUCER;

    static {
        try {
            PARKED_PRODUCER = MethodHandles.lookup().findVarHandle(SpmcHandOff.class, "parkedProducer", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SpmcArrayQueue<T> queue = new SpmcArrayQueue<>(CAPACITY);
    private final int resumeAtSize = CAPACITY / 2;
    private final String name;
    private volatile boolean abandoned;

    @SuppressWarnings("unused") // through PARKED_PRODUCER
    private volatile Thread parkedProducer;

    public SpmcHandOff(String name) {
        this.name = name;
    }

    /** Hands {@code item} over, waiting while the queue is full. */
    public void put(T item) {
        // Offered again until it is taken: a consumer claims a slot (its index) before it clears it, so
        // the room the size shows may not be free yet; a consumer descheduled in between holds it longer.
        for (int step = 0; !queue.relaxedOffer(item); step++) {
            if (abandoned) {
                throw gaveUp();
            }
            if (step < PRODUCER_SPINS) {
                Thread.onSpinWait();
            } else if (queue.size() > resumeAtSize) {
                parkForRoom();
            } else {
                Thread.yield();
            }
        }
    }

    /** The next item for the calling consumer, or null at once if there is none. */
    public T poll() {
        T item = queue.relaxedPoll();
        if (item != null) {
            wakeProducer();
        }
        return item;
    }

    /** The next item for the calling consumer, waiting while the queue is empty. */
    public T take() {
        T item;
        for (int step = 0; (item = queue.relaxedPoll()) == null; step++) {
            if (abandoned) {
                throw gaveUp();
            }
            if (step < SPINS) {
                Thread.onSpinWait();
            } else if (step < SPINS_AND_YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(this, CONSUMER_PARK_NANOS);
            }
        }
        wakeProducer();
        return item;
    }

    /** Ends every wait on this hand-off, now and later, with an {@link IllegalStateException}. */
    public void abandon() {
        abandoned = true;
        unparkProducer();
    }

    private void wakeProducer() {
        // A volatile read per item, a plain load on x86; a producer that announced itself after this read
        // sleeps out PARK_BOUND_NANOS at worst (as SpscHandOff's wake-ups).
        if (parkedProducer != null && queue.size() <= resumeAtSize) {
            unparkProducer();
        }
    }

    /**
     * Announce, then look again: the volatile store is followed by a full fence, so either a consumer's
     * next read of the field sees this thread, or this re-check sees its progress.
     */
    private void parkForRoom() {
        PARKED_PRODUCER.setVolatile(this, Thread.currentThread());
        if (queue.size() > resumeAtSize && !abandoned) {
            LockSupport.parkNanos(this, PARK_BOUND_NANOS);
        }
        PARKED_PRODUCER.compareAndSet(this, Thread.currentThread(), (Thread) null);
    }

    private void unparkProducer() {
        Thread waiter = (Thread) PARKED_PRODUCER.getAndSet(this, (Thread) null);
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }

    private IllegalStateException gaveUp() {
        return new IllegalStateException(name + ": the other side gave up");
    }
}
