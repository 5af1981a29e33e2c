package org.fastflowj.core.fastflow.accelerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_accelerator_pipe.cpp: a three-stage pipeline accelerator run three times (freezing in between) returns each round's tasks, in order. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PipelineAcceleratorRoundsTest {

    static final class Stage extends Node<Integer, Integer> {
        int tasks;

        @Override
        protected Integer svc(Integer task) {
            tasks++;
            return task;
        }
    }

    @Test
    void shouldReturnEachRoundsTasksInOrder() {
        int streamLength = 1000;
        List<Stage> stages = List.of(new Stage(), new Stage(), new Stage());
        Pipeline pipe = new Pipeline(stages.toArray(new Stage[0]));

        for (int round = 0; round < 3; round++) {
            // run_then_freeze / wait_freezing: each round starts a new Accelerator on the same pipeline
            Accelerator<Integer, Integer> acc = Accelerator.start(pipe);
            List<Integer> results = new ArrayList<>();
            for (int i = 0; i < streamLength; i++) {
                acc.offload(i);
                Integer ready = acc.pollResult();
                if (ready != null) {
                    results.add(ready);
                }
            }
            acc.endInput();
            for (Integer r; (r = acc.loadResult()) != null; ) {
                results.add(r);
            }
            acc.waitEnd();
            // a pipeline of sequential stages keeps the stream's order
            assertThat(results)
                    .as("round %d", round)
                    .containsExactlyElementsOf(
                            IntStream.range(0, streamLength).boxed().toList());
        }
        assertThat(stages).allSatisfy(s -> assertThat(s.tasks).isEqualTo(3 * streamLength));
    }
}
