package org.fastflowj.bench.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link SpscHandOff} under both waiting schemes: every item arrives once and in order although the
 * producer outruns the consumer's queue many times over, and an abandoned hand-off ends a wait instead of
 * hanging.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SpscHandOffTest {
    private static final int ITEMS = 50 * SpscHandOff.CAPACITY;

    @ParameterizedTest
    @EnumSource(SpscHandOff.Wait.class)
    void shouldHandOverEveryItemOnceInOrderThroughAFullQueue(SpscHandOff.Wait wait) throws Exception {
        SpscHandOff<byte[]> handOff = new SpscHandOff<>("test", wait);
        byte[][] items = new byte[256][];
        for (int i = 0; i < items.length; i++) {
            items[i] = new byte[] {(byte) i};
        }
        CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
            for (int i = 0; i < ITEMS; i++) {
                handOff.put(items[i % items.length]);
            }
            handOff.wakeConsumerNow();
        });

        for (int i = 0; i < ITEMS; i++) {
            assertThat(handOff.take()).isSameAs(items[i % items.length]);
        }
        producer.get(10, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @EnumSource(SpscHandOff.Wait.class)
    void shouldEndAWaitOnAnEmptyQueueWhenTheOtherSideGivesUp(SpscHandOff.Wait wait) throws Exception {
        SpscHandOff<byte[]> handOff = new SpscHandOff<>("the sink's queue", wait);
        CompletableFuture<byte[]> consumer = CompletableFuture.supplyAsync(handOff::take);

        handOff.abandon();

        assertThatThrownBy(() -> consumer.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the sink's queue");
    }

    @ParameterizedTest
    @EnumSource(SpscHandOff.Wait.class)
    void shouldEndAWaitOnAFullQueueWhenTheOtherSideGivesUp(SpscHandOff.Wait wait) throws Exception {
        SpscHandOff<byte[]> handOff = new SpscHandOff<>("the sender's queue", wait);
        byte[] item = {1};
        for (int i = 0; i < SpscHandOff.CAPACITY; i++) {
            handOff.put(item);
        }
        CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> handOff.put(item));

        handOff.abandon();

        assertThatThrownBy(() -> producer.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the sender's queue");
    }
}
