package org.fastflowj.bench.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link GatherHandOff}: the consumer gets every producer's items, each producer's in its order, although
 * the producers outrun their queues many times over, and an abandoned hand-off ends a wait instead of
 * hanging.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GatherHandOffTest {
    private static final int PRODUCERS = 3;
    private static final int ITEMS_EACH = 20 * GatherHandOff.CAPACITY;

    @Test
    void shouldDeliverEveryProducersItemsInTheirOrder() throws Exception {
        GatherHandOff<long[]> handOff = new GatherHandOff<>("test", PRODUCERS);
        // Threads of their own: the common pool may run one task at a time on a small machine.
        ExecutorService threads = Executors.newFixedThreadPool(PRODUCERS);
        try {
            CompletableFuture<?>[] producers = new CompletableFuture<?>[PRODUCERS];
            for (int p = 0; p < PRODUCERS; p++) {
                int self = p;
                producers[p] = CompletableFuture.runAsync(
                        () -> {
                            for (int i = 0; i < ITEMS_EACH; i++) {
                                handOff.put(self, new long[] {self, i});
                            }
                            handOff.wakeConsumerNow();
                        },
                        threads);
            }

            int[] nextOf = new int[PRODUCERS];
            for (int taken = 0; taken < PRODUCERS * ITEMS_EACH; taken++) {
                long[] item = handOff.take();
                int producer = (int) item[0];
                assertThat(item[1]).as("producer %d's order", producer).isEqualTo(nextOf[producer]);
                nextOf[producer]++;
            }
            assertThat(nextOf).containsOnly(ITEMS_EACH);
            CompletableFuture.allOf(producers).get(10, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void shouldEndAWaitOnEmptyQueuesWhenTheOtherSideGivesUp() {
        GatherHandOff<String> handOff = new GatherHandOff<>("the collector's queues", 2);
        CompletableFuture<String> consumer = CompletableFuture.supplyAsync(handOff::take);

        handOff.abandon();

        assertThatThrownBy(() -> consumer.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the collector's queues");
    }

    @Test
    void shouldEndAWaitOnAFullQueueWhenTheOtherSideGivesUp() {
        GatherHandOff<String> handOff = new GatherHandOff<>("worker 0's queue", 2);
        for (int i = 0; i < GatherHandOff.CAPACITY; i++) {
            handOff.put(0, "x");
        }
        CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> handOff.put(0, "y"));

        handOff.abandon();

        assertThatThrownBy(() -> producer.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("worker 0's queue");
    }
}
