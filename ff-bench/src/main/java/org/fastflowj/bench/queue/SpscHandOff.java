package org.fastflowj.bench.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.SpscArrayQueue;

/**
 * One thread hands items to another through a JCTools {@link SpscArrayQueue} of ff-core's default channel
 * capacity, with nothing else: the least any design pays for putting two ends of a stream on threads of
 * their own (ff-bench's bounds: a source and a sink around plain Netty, a farm without a run-time).
 * A producer that finds the queue full waits until it is at most half full (a consumer that finds it
 * empty, until it holds an item), as {@link Wait} says; {@link #abandon} ends every wait with an error.
 *
 * <p>Memory ordering: an item's contents, written before {@link #put}, are visible to the thread that
 * {@link #take}s it through the queue's release store of the element and acquire load of it.
 *
 * <p>Threading: {@link #put} from one producer thread, {@link #take} from one consumer thread, {@link
 * #abandon} from any.
 */
public final class SpscHandOff<T> {
    /** ff-core's default channel capacity. */
    public static final int CAPACITY = 2048;

    /**
     * A parked consumer is woken once this many items wait (or by {@link #wakeConsumerNow}): a park and
     * an unpark cost microseconds, so they come once per few hundred items, not per item; a quarter of
     * the queue, so a producer does not find it full before the woken consumer runs.
     */
    private static final int WAKE_AT_ITEMS = CAPACITY / 4;

    private static final long BACKOFF_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** Only a safety net: a parked side is woken by the other (see {@link #wakeConsumer}). */
    private static final long PARK_BOUND_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final VarHandle PARKED_PRODUCER;
    private static final VarHandle PARKED_CONSUMER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PARKED_PRODUCER = lookup.findVarHandle(SpscHandOff.class, "parkedProducer", Thread.class);
            PARKED_CONSUMER = lookup.findVarHandle(SpscHandOff.class, "parkedConsumer", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** How a side waits for the other. */
    public enum Wait {
        /**
         * Spin 64 times, yield 16 times, then park for 50 µs, over and over; the other side never signals.
         */
        BACKOFF(64, 16),
        /**
         * Spin 16 times, then announce itself and park until the other side unparks it (bounded as a safety
         * net); the other side reads one volatile field per item to know whether to. ff-core's BACKOFF
         * with more node threads than cores waits the same way. The default: with more threads than cores
         * every spin or yield of a waiting thread takes the core from a busy one.
         */
        PARK(16, 0);

        final int spins;
        final int yields;

        Wait(int spins, int yields) {
            this.spins = spins;
            this.yields = yields;
        }
    }

    private final SpscArrayQueue<T> queue = new SpscArrayQueue<>(CAPACITY);
    private final int resumeAtSize = CAPACITY / 2;
    private final String name;
    private final boolean parking;
    private final int spins;
    private final int spinsAndYields;
    private volatile boolean abandoned;

    @SuppressWarnings("unused") // through PARKED_PRODUCER
    private volatile Thread parkedProducer;

    @SuppressWarnings("unused") // through PARKED_CONSUMER
    private volatile Thread parkedConsumer;

    public SpscHandOff(String name, Wait wait) {
        this.name = name;
        this.parking = wait == Wait.PARK;
        this.spins = wait.spins;
        this.spinsAndYields = wait.spins + wait.yields;
    }

    /** Hands {@code item} over, waiting while the queue is full. */
    public void put(T item) {
        if (!queue.relaxedOffer(item)) {
            awaitRoom();
            queue.relaxedOffer(item); // only this thread offers: the room seen is still there
        }
        if (parking) {
            wakeConsumer();
        }
    }

    /** The next item, waiting while the queue is empty. */
    public T take() {
        T item = queue.relaxedPoll();
        if (item == null) {
            item = awaitItem();
        }
        if (parking) {
            wakeProducer();
        }
        return item;
    }

    /**
     * The next item, or null at once if the queue is empty: a consumer with something to do before it
     * waits (waking its own consumer) tries this first.
     */
    public T poll() {
        T item = queue.relaxedPoll();
        if (item != null && parking) {
            wakeProducer();
        }
        return item;
    }

    /**
     * Wakes a parked consumer whatever the number of items waiting: the producer calls it at the end of
     * a burst (a frame, the last item), so the last items of a burst do not wait out the park bound.
     */
    public void wakeConsumerNow() {
        if (parking) {
            wake(PARKED_CONSUMER);
        }
    }

    /** Ends every wait on this hand-off, now and later, with an {@link IllegalStateException}. */
    public void abandon() {
        abandoned = true;
        wake(PARKED_PRODUCER);
        wake(PARKED_CONSUMER);
    }

    private void wakeConsumer() {
        // A volatile read per item, a plain load on x86. The item was published by the queue's ordered
        // store, which a later load may pass: a consumer that announced itself in that window misses this
        // wake-up and sleeps out PARK_BOUND_NANOS unless a later item or wakeConsumerNow wakes it. Rare,
        // bounded, and a fence per item would cost more.
        if (parkedConsumer != null && queue.size() >= WAKE_AT_ITEMS) {
            wake(PARKED_CONSUMER);
        }
    }

    private void wakeProducer() {
        // As wakeConsumer; the producer resumes only once half the queue is free, so it refills in one go.
        if (parkedProducer != null && queue.size() <= resumeAtSize) {
            wake(PARKED_PRODUCER);
        }
    }

    private void wake(VarHandle parked) {
        Thread waiter = (Thread) parked.getAndSet(this, (Thread) null); // one unpark per park, not one per item
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }

    private void awaitRoom() {
        for (int step = 0; queue.size() > resumeAtSize; step++) {
            idle(step, PARKED_PRODUCER, true);
        }
    }

    private T awaitItem() {
        T item;
        for (int step = 0; (item = queue.relaxedPoll()) == null; step++) {
            idle(step, PARKED_CONSUMER, false);
        }
        return item;
    }

    private void idle(int step, VarHandle parked, boolean producer) {
        if (abandoned) {
            throw new IllegalStateException(name + ": the other side gave up");
        }
        if (step < spins) {
            Thread.onSpinWait();
        } else if (step < spinsAndYields) {
            Thread.yield();
        } else if (!parking) {
            LockSupport.parkNanos(this, BACKOFF_PARK_NANOS);
        } else {
            // Announce, then look again: the volatile store is followed by a full fence, so either the other
            // side's next read of the field sees this thread, or this re-check sees its progress.
            parked.setVolatile(this, Thread.currentThread());
            boolean stillWaiting = producer ? queue.size() > resumeAtSize : queue.isEmpty();
            if (stillWaiting && !abandoned) {
                LockSupport.parkNanos(this, PARK_BOUND_NANOS);
            }
            parked.compareAndSet(this, Thread.currentThread(), (Thread) null);
        }
    }
}
