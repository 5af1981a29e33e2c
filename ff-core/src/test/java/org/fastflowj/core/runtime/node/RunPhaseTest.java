package org.fastflowj.core.runtime.node;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A runner's phase only moves forward, and an end request stops only a running node. */
class RunPhaseTest {
    @Test
    void shouldStopARunningNodeAndLeaveAStoppingOrEndedOneWhereItIs() {
        assertThat(RunPhase.RUNNING.stopRequested()).isEqualTo(RunPhase.STOPPING);
        assertThat(RunPhase.STOPPING.stopRequested()).isEqualTo(RunPhase.STOPPING);
        assertThat(RunPhase.ENDED.stopRequested())
                .as("a request from svcEnd or a late consumer-gone must not reopen an ended node")
                .isEqualTo(RunPhase.ENDED);
    }

    @Test
    void shouldNeverMoveBackOnAnEndRequest() {
        for (RunPhase p : RunPhase.values()) {
            assertThat(p.stopRequested().ordinal()).as("%s", p).isGreaterThanOrEqualTo(p.ordinal());
            assertThat(p.stopRequested()).as("%s", p).isNotEqualTo(RunPhase.RUNNING);
        }
    }
}
