package org.fastflowj.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.fastflowj.core.runtime.channel.IdlePolicy;
import org.fastflowj.core.runtime.control.RunHooks;
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
    void shouldParkSoonestWhenWaitingForBatchedInputOnACrowdedMachine() {
        IdlePolicy crowded = IdlePolicy.of(org.fastflowj.core.WaitStrategy.BACKOFF, true);
        IdlePolicy longInputs = crowded.forLongInputs();
        assertThat(longInputs.spinRounds() + longInputs.yieldRounds())
                .isLessThan(crowded.spinRounds() + crowded.yieldRounds());
        assertThat(longInputs.wakeBatch()).isEqualTo(crowded.wakeBatch());
        assertThat(longInputs.parkNanos()).isEqualTo(crowded.parkNanos());
        // alone on the cores, or woken per item (BLOCKING), a consumer's waits stay as they were
        IdlePolicy alone = IdlePolicy.of(org.fastflowj.core.WaitStrategy.BACKOFF, false);
        assertThat(alone.forLongInputs()).isEqualTo(alone);
        IdlePolicy blocking = IdlePolicy.of(org.fastflowj.core.WaitStrategy.BLOCKING, true);
        assertThat(blocking.forLongInputs()).isEqualTo(blocking);
    }

    @Test
    void shouldRefuseANegativeCount() {
        assertThatThrownBy(() -> RunHooks.NONE.otherBusyThreads(-1)).hasMessageContaining("otherBusyThreads");
    }
}
