package org.fastflowj.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A graph's threads outnumber the cores counting the busy threads a runner adds (a transport's event loops). */
class OversubscriptionTest {
    @Test
    void shouldCountTheRunnersOtherBusyThreadsWithTheNodeThreads() {
        assertThat(Executor.oversubscribed(2, RunHooks.NONE, 2)).isFalse();
        assertThat(Executor.oversubscribed(3, RunHooks.NONE, 2)).isTrue();
        assertThat(Executor.oversubscribed(2, RunHooks.NONE.otherBusyThreads(1), 2))
                .isTrue();
        assertThat(Executor.oversubscribed(2, RunHooks.NONE.otherBusyThreads(2), 4))
                .isFalse();
        // the other hooks keep the count, and the count keeps the other hooks
        RunHooks hooks = RunHooks.NONE.otherBusyThreads(1).onEnd(() -> {});
        assertThat(Executor.oversubscribed(2, hooks, 2)).isTrue();
    }

    @Test
    void shouldParkSoonerWhenOversubscribed() {
        IdlePolicy alone = IdlePolicy.of(org.fastflowj.core.WaitStrategy.BACKOFF, false);
        IdlePolicy crowded = IdlePolicy.of(org.fastflowj.core.WaitStrategy.BACKOFF, true);
        assertThat(crowded.spinRounds() + crowded.yieldRounds()).isLessThan(alone.spinRounds() + alone.yieldRounds());
    }

    @Test
    void shouldRefuseANegativeCount() {
        assertThatThrownBy(() -> RunHooks.NONE.otherBusyThreads(-1)).hasMessageContaining("otherBusyThreads");
    }
}
