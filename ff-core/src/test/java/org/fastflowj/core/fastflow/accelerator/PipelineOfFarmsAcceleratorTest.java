package org.fastflowj.core.fastflow.accelerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_accelerator_pipe+farm.cpp: a pipeline of two farms (emitter and collector each) run as an accelerator returns every task, each farm's workers together seeing the whole stream. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class PipelineOfFarmsAcceleratorTest {

    static final class CountingWorker extends Node<Integer, Integer> {
        int tasks;

        @Override
        protected Integer svc(Integer task) {
            tasks++;
            return task;
        }
    }

    static final class Pass extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer task) {
            return task;
        }
    }

    @Test
    void shouldReturnEveryTaskThroughBothFarms() {
        int streamLength = 1000;
        int workersPerFarm = 3;
        List<CountingWorker> stage1 = new ArrayList<>();
        List<CountingWorker> stage2 = new ArrayList<>();
        for (int i = 0; i < workersPerFarm; i++) {
            stage1.add(new CountingWorker());
            stage2.add(new CountingWorker());
        }
        Farm farm1 = Farm.of(stage1).emitter(new Pass()).collector(new Pass());
        Farm farm2 = Farm.of(stage2).emitter(new Pass()).collector(new Pass());
        Pipeline pipe = new Pipeline(farm1, farm2);

        Accelerator<Integer, Integer> acc =
                Accelerator.start(pipe, RunOptions.defaults().queueCapacity(1024));
        List<Integer> results = new ArrayList<>();
        for (int j = 0; j < streamLength; j++) {
            acc.offload(j);
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

        assertThat(results)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, streamLength).boxed().toList());
        assertThat(stage1.stream().mapToInt(w -> w.tasks).sum()).isEqualTo(streamLength);
        assertThat(stage2.stream().mapToInt(w -> w.tasks).sum()).isEqualTo(streamLength);
        // pipe->ffStats: the run's statistics cover the input and output stages and every node of both farms
        List<NodeStats> nodes = acc.stats().nodes();
        assertThat(nodes).hasSize(2 + 2 * (workersPerFarm + 2));
        assertThat(nodes.stream().filter(n -> n.name().endsWith("collector")).mapToLong(NodeStats::itemsIn))
                .containsOnly((long) streamLength);
    }
}
