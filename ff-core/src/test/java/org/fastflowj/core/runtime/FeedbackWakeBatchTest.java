package org.fastflowj.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.runtime.channel.IdlePolicy;
import org.junit.jupiter.api.Test;

/** How many queued items wake a parked consumer, by channel kind and wait strategy. */
class FeedbackWakeBatchTest {
    private static final int UNBOUNDED = Integer.MAX_VALUE;

    @Test
    void shouldWakeALoopHeadOncePerFewCompletionsUnderBackoffWhenOversubscribed() {
        IdlePolicy crowded = IdlePolicy.of(WaitStrategy.BACKOFF, true);
        IdlePolicy alone = IdlePolicy.of(WaitStrategy.BACKOFF, false);
        assertThat(Executor.wakeBatch(Edge.Kind.FEEDBACK, UNBOUNDED, crowded, true))
                .isEqualTo(Executor.FEEDBACK_WAKE_BATCH);
        // with a core per thread a waiting loop head spins and yields before it parks: wake it at once
        assertThat(Executor.wakeBatch(Edge.Kind.FEEDBACK, UNBOUNDED, alone, false))
                .isEqualTo(1);
    }

    @Test
    void shouldWakeAtOnceUnderBlockingAndBusySpin() {
        for (WaitStrategy strategy : new WaitStrategy[] {WaitStrategy.BLOCKING, WaitStrategy.BUSY_SPIN}) {
            IdlePolicy idle = IdlePolicy.of(strategy, true);
            boolean oversubscribed = true;
            assertThat(Executor.wakeBatch(Edge.Kind.FEEDBACK, UNBOUNDED, idle, oversubscribed))
                    .as("%s", strategy)
                    .isEqualTo(1);
            assertThat(Executor.wakeBatch(Edge.Kind.FORWARD, 512, idle, oversubscribed))
                    .as("%s", strategy)
                    .isEqualTo(1);
        }
    }

    @Test
    void shouldKeepForwardBatchesWithinAQuarterOfTheChannelAndOrderChannelsImmediate() {
        IdlePolicy backoff = IdlePolicy.of(WaitStrategy.BACKOFF, true);
        assertThat(Executor.wakeBatch(Edge.Kind.FORWARD, 512, backoff, true)).isEqualTo(128);
        assertThat(Executor.wakeBatch(Edge.Kind.FORWARD, 2, backoff, true)).isEqualTo(1);
        assertThat(Executor.wakeBatch(Edge.Kind.ORDER, 512, backoff, true)).isEqualTo(1);
    }
}
