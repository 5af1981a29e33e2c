package org.fastflowj.dist.run.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The take order gives the sender, output after output, the channel and per-channel sequence of each item
 * the R-Worker took, in the order taken, across the growth of its ring and between two threads; an output
 * with no item taken is refused, naming the R-Worker.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TakeOrderTest {
    @Test
    void shouldTagEachOutputWithTheChannelAndSequenceOfTheItemTakenInTurn() {
        TakeOrder order = new TakeOrder("R-Worker 1 (r1) of a2a1 in group W1", 2);
        order.took(0, 1);
        order.took(1, 3); // a chunk of three from channel 1
        order.took(0, 1);

        assertThat(order.next()).isEqualTo(TakeOrder.tag(0, 0));
        assertThat(order.next()).isEqualTo(TakeOrder.tag(1, 0));
        assertThat(order.next()).isEqualTo(TakeOrder.tag(1, 1));
        long third = order.next();
        assertThat(TakeOrder.channelOf(third)).isEqualTo(1);
        assertThat(TakeOrder.sequenceOf(third)).isEqualTo(2);
        assertThat(order.next()).isEqualTo(TakeOrder.tag(0, 1));
        assertThatThrownBy(order::next)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("R-Worker 1 (r1) of a2a1 in group W1 sent an output for no item it took")
                .hasMessageContaining("exactly one output per item");
    }

    @Test
    void shouldKeepTheOrderWhileItsRingGrowsBehindASlowSender() {
        TakeOrder order = new TakeOrder("r", 3);
        int items = 5_000; // many times the first ring: it doubles several times, unread
        for (int k = 0; k < items; k++) {
            order.took(k % 3, 1);
        }
        for (int k = 0; k < items; k++) {
            assertThat(order.next()).isEqualTo(TakeOrder.tag(k % 3, k / 3));
        }
    }

    @Test
    void shouldHandEveryTagToAnotherThreadInOrder() throws Exception {
        TakeOrder order = new TakeOrder("r", 2);
        int items = 200_000;
        // The queue stands for the R-Worker's output channel: an output leaves after its item's tag.
        BlockingQueue<Integer> outputs = new ArrayBlockingQueue<>(4_096);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                long[] next = new long[2];
                for (int k = 0; k < items; k++) {
                    int channel = outputs.take();
                    long tag = order.next();
                    if (tag != TakeOrder.tag(channel, next[channel]++)) {
                        throw new AssertionError("output " + k + " got tag " + Long.toHexString(tag));
                    }
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        sender.start();
        for (int k = 0; k < items; k++) {
            int channel = (k * 7 / 3) % 2;
            order.took(channel, 1);
            outputs.put(channel);
        }
        sender.join();
        assertThat(failed.get()).isNull();
    }
}
