package org.fastflowj.core.fastflow.accelerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_masterworker.cpp: a master-worker farm (workers feed back to the emitter) run three times as an accelerator ends each round once its input ended and every task came back. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class MasterWorkerAcceleratorRoundsTest {

    static final class Worker extends Node<Long, Long> {
        int tasks;

        @Override
        protected Long svc(Long task) {
            tasks++;
            return task;
        }
    }

    /** The emitter: forwards offloaded tasks, counts the ones coming back, ends when the input ended and none is out. */
    static final class Master extends MultiInputNode<Long, Long> {
        private boolean inputEnded;
        private long outstanding;
        final List<List<Long>> backPerRound = new ArrayList<>();

        @Override
        protected void svcInit() {
            inputEnded = false;
            outstanding = 0;
            backPerRound.add(new ArrayList<>());
        }

        @Override
        protected Long svc(Long task) {
            if (!fromFeedback()) {
                outstanding++;
                return task;
            }
            backPerRound.get(backPerRound.size() - 1).add(task);
            return --outstanding == 0 && inputEnded ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            inputEnded = true;
            if (outstanding == 0) {
                sendOut(eos()); // broadcast_task(FF_EOS)
            }
        }
    }

    @Test
    void shouldGetEveryTaskBackInEachOfThreeRoundsAndGiveNothingToTheCaller() {
        int streamLength = 1000;
        List<Long> stream = LongStream.range(0, streamLength).boxed().toList();
        List<Worker> workers = List.of(new Worker(), new Worker(), new Worker());
        Master master = new Master();
        Farm farm = Farm.of(workers).emitter(master).wrapAround();

        for (int round = 0; round < 3; round++) {
            // run_then_freeze / wait_freezing: each round starts a new Accelerator on the same farm
            Accelerator<Long, Long> acc = Accelerator.start(farm);
            for (long j = 0; j < streamLength; j++) {
                acc.offload(j);
            }
            acc.endInput();
            acc.waitEnd();
            // the workers' results go back to the emitter only: the accelerator has no result
            assertThat(acc.loadResult()).as("round %d", round).isNull();
        }

        assertThat(master.backPerRound).hasSize(3).allSatisfy(back -> assertThat(back)
                .containsExactlyInAnyOrderElementsOf(stream));
        assertThat(workers.stream().mapToInt(w -> w.tasks).sum()).isEqualTo(3 * streamLength);
    }
}
