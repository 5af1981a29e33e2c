package org.fastflowj.core.fastflow.accelerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_accelerator_ofarm_multiple_freezing.cpp: an ordered on-demand farm accelerator frozen and restarted 100 times keeps result order in every round and ends its workers each time. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OrderedFarmAcceleratorRefreezingTest {

    static final class Worker extends Node<Integer, Integer> {
        int ends;
        int tasks;

        @Override
        protected Integer svc(Integer task) {
            tasks++;
            return task;
        }

        @Override
        protected void svcEnd() {
            ends++; // "worker END" in the C++, once per round
        }
    }

    @Test
    void shouldKeepOrderInEachOfAHundredRunsOfTheSameFarm() {
        int rounds = 100;
        int streamLength = 1000;
        List<Worker> workers = List.of(new Worker(), new Worker(), new Worker());
        Farm farm = Farm.of(workers).ordered().onDemand();
        RunOptions options = RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING);

        for (int round = 0; round < rounds; round++) {
            // run_then_freeze / wait_freezing: a new Accelerator on the same farm for each round
            Accelerator<Integer, Integer> acc = Accelerator.start(farm, options);
            int expected = 0;
            for (int i = 0; i < streamLength; i++) {
                acc.offload(i);
                Integer ready = acc.pollResult();
                if (ready != null) {
                    assertThat(ready).as("round %d", round).isEqualTo(expected);
                    expected++;
                }
            }
            acc.endInput();
            for (Integer r; (r = acc.loadResult()) != null; ) {
                assertThat(r).as("round %d", round).isEqualTo(expected);
                expected++;
            }
            acc.waitEnd();
            assertThat(expected).as("results of round %d", round).isEqualTo(streamLength);
        }

        assertThat(workers).allSatisfy(w -> assertThat(w.ends).isEqualTo(rounds));
        assertThat(workers.stream().mapToInt(w -> w.tasks).sum()).isEqualTo(rounds * streamLength);
    }
}
