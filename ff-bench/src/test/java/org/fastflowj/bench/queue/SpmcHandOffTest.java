package org.fastflowj.bench.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SpmcHandOff}: every item reaches exactly one consumer although the producer outruns the queue
 * many times over, and an abandoned hand-off ends a wait instead of hanging.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SpmcHandOffTest {
    private static final int ITEMS = 50 * SpmcHandOff.CAPACITY;
    private static final Integer END = -1;

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void shouldGiveEveryItemToExactlyOneConsumerThroughAFullQueue(int consumerCount) throws Exception {
        SpmcHandOff<Integer> handOff = new SpmcHandOff<>("test");
        // Threads of their own: the common pool may run one task at a time on a small machine.
        ExecutorService threads = Executors.newFixedThreadPool(consumerCount);
        try {
            List<CompletableFuture<boolean[]>> consumers = new ArrayList<>();
            for (int c = 0; c < consumerCount; c++) {
                boolean alternate = c % 2 == 0; // even ones wait in take(), odd ones try poll() first
                consumers.add(CompletableFuture.supplyAsync(
                        () -> {
                            boolean[] seen = new boolean[ITEMS];
                            for (; ; ) {
                                Integer item = alternate ? handOff.take() : handOff.poll();
                                if (item == null) {
                                    item = handOff.take();
                                }
                                if (item.equals(END)) {
                                    return seen;
                                }
                                seen[item] = true;
                            }
                        },
                        threads));
            }
            for (int i = 0; i < ITEMS; i++) {
                handOff.put(i);
            }
            for (int c = 0; c < consumerCount; c++) {
                handOff.put(END);
            }

            int[] takenBy = new int[ITEMS];
            for (CompletableFuture<boolean[]> consumer : consumers) {
                boolean[] seen = consumer.get(20, TimeUnit.SECONDS);
                for (int i = 0; i < ITEMS; i++) {
                    takenBy[i] += seen[i] ? 1 : 0;
                }
            }
            assertThat(takenBy).containsOnly(1);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void shouldEndAWaitOnAnEmptyQueueWhenTheOtherSideGivesUp() {
        SpmcHandOff<Integer> handOff = new SpmcHandOff<>("the workers' queue");
        CompletableFuture<Integer> consumer = CompletableFuture.supplyAsync(handOff::take);

        handOff.abandon();

        assertThatThrownBy(() -> consumer.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the workers' queue");
    }

    @Test
    void shouldEndAWaitOnAFullQueueWhenTheOtherSideGivesUp() {
        SpmcHandOff<Integer> handOff = new SpmcHandOff<>("the emitter's queue");
        for (int i = 0; i < SpmcHandOff.CAPACITY; i++) {
            handOff.put(i);
        }
        CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> handOff.put(0));

        handOff.abandon();

        assertThatThrownBy(() -> producer.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the emitter's queue");
    }
}
