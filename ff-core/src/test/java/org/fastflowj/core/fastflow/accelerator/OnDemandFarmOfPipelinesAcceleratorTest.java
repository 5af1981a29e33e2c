package org.fastflowj.core.fastflow.accelerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_accelerator_farm+pipe.cpp: an on-demand farm (emitter, collector, two-stage pipeline workers) run as an accelerator for several rounds returns each round's tasks. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class OnDemandFarmOfPipelinesAcceleratorTest {

    /** A pass-through stage that counts its tasks per round (svcInit resets the count). */
    static final class CountingStage extends Node<Integer, Integer> {
        final List<Integer> perRound = new ArrayList<>();

        @Override
        protected void svcInit() {
            perRound.add(0);
        }

        @Override
        protected Integer svc(Integer task) {
            perRound.set(perRound.size() - 1, perRound.get(perRound.size() - 1) + 1);
            return task;
        }
    }

    @Test
    void shouldReturnEveryRoundsTasksFromTheSameFarmRunAgain() {
        int maxStreamLength = 1000;
        int rounds = 3;
        List<CountingStage> firstStages = new ArrayList<>();
        List<CountingStage> secondStages = new ArrayList<>();
        List<Pipeline> workers = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            CountingStage s1 = new CountingStage();
            CountingStage s2 = new CountingStage();
            firstStages.add(s1);
            secondStages.add(s2);
            workers.add(new Pipeline(s1, s2));
        }
        CountingStage emitter = new CountingStage();
        CountingStage collector = new CountingStage();
        Farm farm = Farm.of(workers).emitter(emitter).collector(collector).onDemand();
        RunOptions options =
                RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING).queueCapacity(1024);

        Random random = new Random(4999);
        List<Integer> bunches = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            int bunch = random.nextInt(maxStreamLength);
            bunches.add(bunch);
            // run_then_freeze ... wait_freezing: each round starts a new Accelerator on the same farm
            // (a block can be run again once its previous run ended)
            Accelerator<Integer, Integer> acc = Accelerator.start(farm, options);
            List<Integer> results = new ArrayList<>();
            for (int j = 0; j < bunch; j++) {
                acc.offload(round + j);
                Integer ready = acc.pollResult();
                if (ready != null) {
                    results.add(ready);
                }
            }
            acc.endInput();
            // the C++ loop spins on load_result_nb until it yields EOS; pollResult cannot say "ended",
            // so the blocking loadResult (null at the end) is used instead
            for (Integer r; (r = acc.loadResult()) != null; ) {
                results.add(r);
            }
            acc.waitEnd();
            int first = round;
            assertThat(results)
                    .as("round %d", round)
                    .containsExactlyInAnyOrderElementsOf(IntStream.range(0, bunch)
                            .map(j -> first + j)
                            .boxed()
                            .toList());
        }

        assertThat(emitter.perRound).containsExactlyElementsOf(bunches);
        assertThat(collector.perRound).containsExactlyElementsOf(bunches);
        for (int round = 0; round < rounds; round++) {
            int r = round;
            assertThat(firstStages.stream().mapToInt(s -> s.perRound.get(r)).sum())
                    .isEqualTo(bunches.get(r));
            assertThat(secondStages.stream().mapToInt(s -> s.perRound.get(r)).sum())
                    .isEqualTo(bunches.get(r));
        }
    }
}
