package org.fastflowj.dist.run.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.GroupConfig;
import org.junit.jupiter.api.Test;

/** Batches by the observed rate: one message per frame at a trickle, large frames at full rate. */
class BatchSizerTest {
    private static final long FLUSH_DELAY = TimeUnit.MICROSECONDS.toNanos(100);
    private static final long US = 1_000;

    /** Sends batches of {@code target()} messages arriving {@code gapNanos} apart; returns the clock. */
    private static long stream(BatchSizer sizer, long now, long gapNanos, int batches) {
        for (int i = 0; i < batches; i++) {
            int messages = sizer.target();
            now += messages * gapNanos;
            sizer.sending(messages, now);
            sizer.sent(now);
        }
        return now;
    }

    @Test
    void aFixedSizeStaysFixed() {
        BatchSizer sizer = new BatchSizer(32, FLUSH_DELAY);
        stream(sizer, 0, 10 * US, 10);
        assertThat(sizer.target()).isEqualTo(32);
        assertThat(sizer.max()).isEqualTo(32);
    }

    @Test
    void autoStartsAtOneMessageAndStaysThereAtATrickle() {
        BatchSizer sizer = new BatchSizer(GroupConfig.AUTO_BATCH_SIZE, FLUSH_DELAY);
        assertThat(sizer.target()).isEqualTo(1);
        stream(sizer, 0, 2_000 * US, 20); // TrickleLatency's 2 ms gap
        assertThat(sizer.target()).isEqualTo(1);
        assertThat(sizer.max()).isEqualTo(GroupConfig.AUTO_MAX_BATCH_SIZE);
    }

    @Test
    void autoGrowsWithTheRateToAsManyAsComeWithinTheFlushDelay() {
        BatchSizer sizer = new BatchSizer(GroupConfig.AUTO_BATCH_SIZE, FLUSH_DELAY);
        long now = stream(sizer, 0, 2_000 * US, 5);
        now = stream(sizer, now, 4 * US, 20); // 250 000 messages a second: 25 within 100 us
        assertThat(sizer.target()).isBetween(20, 30);
        stream(sizer, now, 100, 20); // 10 million a second: the cap
        assertThat(sizer.target()).isEqualTo(GroupConfig.AUTO_MAX_BATCH_SIZE);
    }

    @Test
    void autoShrinksBackWhenTheStreamSlowsDown() {
        BatchSizer sizer = new BatchSizer(GroupConfig.AUTO_BATCH_SIZE, FLUSH_DELAY);
        long now = stream(sizer, 0, 100, 10);
        assertThat(sizer.target()).isEqualTo(GroupConfig.AUTO_MAX_BATCH_SIZE);
        stream(sizer, now, 1_000 * US, 10);
        assertThat(sizer.target()).isEqualTo(1);
    }

    @Test
    void waitingForCreditsDoesNotCountAsASlowProducer() {
        BatchSizer sizer = new BatchSizer(GroupConfig.AUTO_BATCH_SIZE, FLUSH_DELAY);
        long now = stream(sizer, 0, 100, 10);
        for (int i = 0; i < 10; i++) {
            now += 512 * 100L;
            sizer.sending(512, now);
            now += 50_000 * US; // the receiver gave credit back 50 ms later
            sizer.sent(now);
        }
        assertThat(sizer.target()).isEqualTo(GroupConfig.AUTO_MAX_BATCH_SIZE);
    }

    /** Twelve full batches filled at 300 ns a message (333 fit within the flush delay); returns the target. */
    private static int fullBatchesAt300Nanos(boolean keptBusy) {
        BatchSizer sizer = new BatchSizer(GroupConfig.AUTO_BATCH_SIZE, FLUSH_DELAY);
        long now = 0;
        for (int i = 0; i < 12; i++) {
            int messages = sizer.target();
            now += messages * 300L;
            sizer.sending(messages, now, keptBusy);
            sizer.sent(now);
        }
        return sizer.target();
    }

    @Test
    void aStreamThatKeepsTheSenderBusyGrowsToTheLargestBatch() {
        assertThat(fullBatchesAt300Nanos(true)).isEqualTo(GroupConfig.AUTO_MAX_BATCH_SIZE);
    }

    @Test
    void aBatchWhoseInputRanDryIsSizedByTheRateItShowed() {
        assertThat(fullBatchesAt300Nanos(false)).isBetween(300, 370);
    }

    @Test
    void anAutoBatchLeavesAtItsByteBoundAndAFixedOneDoesNot() {
        BatchSizer auto = new BatchSizer(GroupConfig.AUTO_BATCH_SIZE, FLUSH_DELAY);
        assertThat(auto.fullAt(BatchSizer.AUTO_MAX_BATCH_BYTES - 1)).isFalse();
        assertThat(auto.fullAt(BatchSizer.AUTO_MAX_BATCH_BYTES)).isTrue();
        assertThat(new BatchSizer(512, FLUSH_DELAY).fullAt(64 * 1024 * 512)).isFalse();
    }
}
