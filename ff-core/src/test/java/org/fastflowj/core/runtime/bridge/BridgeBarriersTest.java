package org.fastflowj.core.runtime.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.TaskGraphs;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.spi.CheckpointBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A checkpoint's barrier on a bridge's forward input is drained as a barrier, never as an item: in its
 * place among the input's items, with its checkpoint's id; a bridge that cannot carry one fails the run.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BridgeBarriersTest {
    @Test
    void shouldReportEachBarrierBetweenTheItemsAroundIt() throws Exception {
        List<Object> script = List.of(0, 1, 2, new CheckpointBarrier(5), 3, 4, new CheckpointBarrier(6), 5);
        ScriptedBridges.RecordingBarriers consumer = new ScriptedBridges.RecordingBarriers();

        run(script, consumer, RunOptions.defaults());

        assertThat(consumer.events)
                .containsExactly(
                        "item 0", "item 1", "item 2", "barrier 5", "item 3", "item 4", "barrier 6", "item 5", "ended");
    }

    @Test
    void shouldKeepBarriersInPlaceThroughAChannelThatFillsAgainAndAgain() throws Exception {
        List<Object> script = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            if (i % 7 == 0) {
                script.add(new CheckpointBarrier(i / 7));
                expected.add("barrier " + i / 7);
            }
            script.add(i);
            expected.add("item " + i);
        }
        expected.add("ended");
        ScriptedBridges.RecordingBarriers consumer = new ScriptedBridges.RecordingBarriers();

        run(script, consumer, RunOptions.defaults().queueCapacity(2));

        assertThat(consumer.events).containsExactlyElementsOf(expected);
    }

    @Test
    void shouldFailTheRunNamingABridgeThatCannotCarryBarriers() {
        List<Object> script = List.of(1, new CheckpointBarrier(3), 2);
        ScriptedBridges.Recording consumer = new ScriptedBridges.Recording();

        assertThatThrownBy(() -> run(script, consumer, RunOptions.defaults()))
                .hasStackTraceContaining("recording bridge cannot carry checkpoint barriers (checkpoint 3");
        assertThat(consumer.events).as("the barrier is no item").containsExactly("item 1");
    }

    private static void run(List<Object> script, BridgeTask consumer, RunOptions options) throws Exception {
        Execution execution = Executor.start(TaskGraphs.chain(new ScriptedBridges.Offering(script), consumer), options);
        assertThat(execution.await(20, TimeUnit.SECONDS)).as("the run ended").isTrue();
    }
}
