package org.fastflowj.core.runtime.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Single-threaded checks of a channel's limits, as its producer and consumer see them. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SpscChannelTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 100, 1000, 1024, 2048})
    void shouldHoldExactlyItsLimitWhateverTheArraySize(int limit) {
        SpscChannel ch = SpscChannel.bounded(limit, false, "test");
        for (int i = 0; i < limit; i++) {
            assertThat(ch.offer(i)).as("offer %d of %d", i, limit).isTrue();
        }
        assertThat(ch.offer(-1)).as("offer beyond the limit").isFalse();
        assertThat(ch.poll()).isEqualTo(0);
        assertThat(ch.offer(limit)).as("one slot freed, one offer accepted").isTrue();
        assertThat(ch.offer(-1)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 7, 100, 2048})
    void shouldLetAFullProducerResumeOnlyAtTheLowWaterMark(int limit) {
        SpscChannel ch = SpscChannel.bounded(limit, false, "test");
        for (int i = 0; i < limit; i++) {
            ch.offer(i);
        }
        int drained = 0;
        while (!ch.producerMayResume()) {
            assertThat(ch.poll()).isNotNull();
            drained++;
        }
        assertThat(limit - drained)
                .as("items left when the producer may resume")
                .isEqualTo(limit / 2);
        assertThat(ch.belowLowWater()).as("the consumer's view agrees").isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 64, 2048})
    void shouldSeeItemsFromTheHeadSlot(int limit) {
        SpscChannel ch = SpscChannel.bounded(limit, false, "test");
        assertThat(ch.hasItems()).isFalse();
        ch.offer("x");
        assertThat(ch.hasItems()).isTrue();
        ch.poll();
        assertThat(ch.hasItems()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(ints = {10_000})
    void shouldNeverRefuseAnUnboundedOffer(int items) {
        SpscChannel ch = SpscChannel.unbounded(true, "test");
        for (int i = 0; i < items; i++) {
            assertThat(ch.offer(i)).isTrue();
        }
        assertThat(ch.producerMayResume()).isTrue();
        assertThat(ch.hasItems()).isTrue();
    }
}
