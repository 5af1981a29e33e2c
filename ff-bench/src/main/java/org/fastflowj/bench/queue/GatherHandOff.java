package org.fastflowj.bench.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.SpscArrayQueue;

/**
 * Several producers hand items to one consumer, each through a JCTools {@link SpscArrayQueue} of its own
 * (ff-core's default channel capacity), the consumer taking from whichever has an item, in turn: a farm
 * collector's inputs when the order items arrive in is not known. The consumer parks once every queue is
 * empty and is woken by a producer once a quarter of its queue waits (or by {@link #wakeConsumerNow}), as
 * {@link SpscHandOff.Wait#PARK}; a producer that finds its queue full spins, yields, then parks briefly,
 * unsignalled (the consumer takes far faster than a producer puts).
 *
 * <p>Memory ordering: an item's contents, written before {@link #put}, are visible to the consumer through
 * the queue's release store of the element and acquire load of it.
 *
 * <p>Threading: {@link #put} for producer {@code k} from one thread per {@code k}, {@link #take} from one
 * consumer thread, {@link #wakeConsumerNow} and {@link #abandon} from any.
 */
public final class GatherHandOff<T> {
    public static final int CAPACITY = SpscHandOff.CAPACITY;

    private static final int WAKE_AT_ITEMS = CAPACITY / 4;
    private static final int CONSUMER_SPINS = 16;
    private static final int SPINS = 64;
    private static final int SPINS_AND_YIELDS = SPINS + 16;
    private static final long PRODUCER_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** Only a safety net: a parked consumer is woken by the producers. */
    private static final long PARK_BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final VarHandle PARKED_CONSUMER;

    static {
        try {
            PARKED_CONSUMER = MethodHandles.lookup().findVarHandle(GatherHandOff.class, "parkedConsumer", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SpscArrayQueue<T>[] queues;
    private final String name;
    /** The consumer's: the queue it looks at first next time. */
    private int next;

    private volatile boolean abandoned;

    @SuppressWarnings("unused") // through PARKED_CONSUMER
    private volatile Thread parkedConsumer;

    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of generic queues
    public GatherHandOff(String name, int producers) {
        this.name = name;
        this.queues = new SpscArrayQueue[producers];
        for (int k = 0; k < producers; k++) {
            queues[k] = new SpscArrayQueue<>(CAPACITY);
        }
    }

    /** Producer {@code k} hands {@code item} over, waiting while its queue is full. */
    public void put(int k, T item) {
        SpscArrayQueue<T> queue = queues[k];
        for (int step = 0; !queue.relaxedOffer(item); step++) {
            if (abandoned) {
                throw gaveUp();
            }
            if (step < SPINS) {
                Thread.onSpinWait();
            } else if (step < SPINS_AND_YIELDS) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(this, PRODUCER_PARK_NANOS);
            }
        }
        // A volatile read per item, a plain load on x86; a consumer that announced itself after this read
        // sleeps out PARK_BOUND_NANOS at worst, unless a later item or wakeConsumerNow wakes it.
        if (parkedConsumer != null && queue.size() >= WAKE_AT_ITEMS) {
            wakeConsumerNow();
        }
    }

    /** Wakes a parked consumer however few items wait: a producer about to wait, or at its end, calls it. */
    public void wakeConsumerNow() {
        Thread waiter = (Thread) PARKED_CONSUMER.getAndSet(this, (Thread) null);
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }

    /** The next item from any producer, waiting while every queue is empty. */
    public T take() {
        for (int step = 0; ; step++) {
            T item = pollAny();
            if (item != null) {
                return item;
            }
            if (abandoned) {
                throw gaveUp();
            }
            if (step < CONSUMER_SPINS) {
                Thread.onSpinWait();
                continue;
            }
            // Announce, then look again: the volatile store is followed by a full fence, so either a
            // producer's next read of the field sees this thread, or this re-check sees its item.
            PARKED_CONSUMER.setVolatile(this, Thread.currentThread());
            if (allEmpty() && !abandoned) {
                LockSupport.parkNanos(this, PARK_BOUND_NANOS);
            }
            PARKED_CONSUMER.compareAndSet(this, Thread.currentThread(), (Thread) null);
        }
    }

    /** Ends every wait on this hand-off, now and later, with an {@link IllegalStateException}. */
    public void abandon() {
        abandoned = true;
        wakeConsumerNow();
    }

    private T pollAny() {
        int n = queues.length;
        for (int j = 0; j < n; j++) {
            int k = next;
            next = k + 1 == n ? 0 : k + 1;
            T item = queues[k].relaxedPoll();
            if (item != null) {
                return item;
            }
        }
        return null;
    }

    private boolean allEmpty() {
        for (SpscArrayQueue<T> queue : queues) {
            if (!queue.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private IllegalStateException gaveUp() {
        return new IllegalStateException(name + ": the other side gave up");
    }
}
