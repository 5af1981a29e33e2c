package org.fastflowj.bench;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.WaitStrategy;

/**
 * {@link PipelineThroughput}'s hand-off on an LMAX Disruptor: one producer publishes the same object N times
 * into a ring of the pipeline's channel capacity, one event handler counts them. The ring's slots are
 * pre-allocated holders, so nothing is allocated per item, as in the pipeline.
 */
final class DisruptorHandOff {
    private DisruptorHandOff() {}

    /** A ring slot: the reference handed over. */
    static final class Slot {
        Object item;
    }

    /** The consumer: counts items, opens the latch at the last one. */
    private static final class CountingHandler implements EventHandler<Slot> {
        private final long expected;
        private final CountDownLatch done;
        long received;

        CountingHandler(long expected, CountDownLatch done) {
            this.expected = expected;
            this.done = done;
        }

        @Override
        public void onEvent(Slot slot, long sequence, boolean endOfBatch) {
            if (slot.item != null && ++received == expected) {
                done.countDown();
            }
        }
    }

    /**
     * The Disruptor's wait strategy closest to ff-core's: BUSY_SPIN spins, BACKOFF spins, yields, then
     * parks briefly ({@code SleepingWaitStrategy}), BLOCKING waits on a lock and condition.
     */
    static com.lmax.disruptor.WaitStrategy waitStrategy(WaitStrategy strategy) {
        return switch (strategy) {
            case BUSY_SPIN -> new BusySpinWaitStrategy();
            case BACKOFF -> new SleepingWaitStrategy();
            case BLOCKING -> new BlockingWaitStrategy();
        };
    }

    /** Moves {@code items} through a new ring of {@code capacity} (a power of two); returns the count handled. */
    static long run(WaitStrategy strategy, int capacity, int items) throws InterruptedException {
        Disruptor<Slot> disruptor = new Disruptor<>(
                Slot::new,
                capacity,
                runnable -> new Thread(runnable, "disruptor-consumer"),
                ProducerType.SINGLE,
                waitStrategy(strategy));
        CountDownLatch done = new CountDownLatch(1);
        CountingHandler handler = new CountingHandler(items, done);
        disruptor.handleEventsWith(handler);
        RingBuffer<Slot> ring = disruptor.start();
        Thread producer = new Thread(
                () -> {
                    for (int i = 0; i < items; i++) {
                        long sequence = ring.next();
                        ring.get(sequence).item = PipelineThroughput.ITEM;
                        ring.publish(sequence); // the publish is the release that the handler's read acquires
                    }
                },
                "disruptor-producer");
        producer.start();
        producer.join();
        if (!done.await(60, TimeUnit.SECONDS)) {
            disruptor.halt();
            throw new IllegalStateException("Disruptor hand-off: the handler saw " + handler.received + " of " + items);
        }
        disruptor.shutdown();
        return handler.received; // the latch orders the handler's last write before this read
    }
}
