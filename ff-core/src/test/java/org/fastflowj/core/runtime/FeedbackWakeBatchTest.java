package org.fastflowj.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.Edge;
import org.junit.jupiter.api.Test;

/** How many queued items wake a parked consumer, by channel kind and wait strategy. */
class FeedbackWakeBatchTest {
    private static final int UNBOUNDED = Integer.MAX_VALUE;

    @Test
    void shouldWakeALoopHeadOncePerFewCompletionsUnderBackoff() {
        IdlePolicy crowded = IdlePolicy.of(WaitStrategy.BACKOFF, true);
        IdlePolicy alone = IdlePolicy.of(WaitStrategy.BACKOFF, false);
        assertThat(Executor.wakeBatch(Edge.Kind.FEEDBACK, UNBOUNDED, crowded)).isEqualTo(Executor.FEEDBACK_WAKE_BATCH);
        assertThat(Executor.wakeBatch(Edge.Kind.FEEDBACK, UNBOUNDED, alone)).isEqualTo(Executor.FEEDBACK_WAKE_BATCH);
    }

    @Test
    void shouldWakeAtOnceUnderBlockingAndBusySpin() {
        for (WaitStrategy strategy : new WaitStrategy[] {WaitStrategy.BLOCKING, WaitStrategy.BUSY_SPIN}) {
            IdlePolicy idle = IdlePolicy.of(strategy, true);
            assertThat(Executor.wakeBatch(Edge.Kind.FEEDBACK, UNBOUNDED, idle))
                    .as("%s", strategy)
                    .isEqualTo(1);
            assertThat(Executor.wakeBatch(Edge.Kind.FORWARD, 512, idle))
                    .as("%s", strategy)
                    .isEqualTo(1);
        }
    }

    @Test
    void shouldKeepForwardBatchesWithinAQuarterOfTheChannelAndOrderChannelsImmediate() {
        IdlePolicy backoff = IdlePolicy.of(WaitStrategy.BACKOFF, true);
        assertThat(Executor.wakeBatch(Edge.Kind.FORWARD, 512, backoff)).isEqualTo(128);
        assertThat(Executor.wakeBatch(Edge.Kind.FORWARD, 2, backoff)).isEqualTo(1);
        assertThat(Executor.wakeBatch(Edge.Kind.ORDER, 512, backoff)).isEqualTo(1);
    }
}
