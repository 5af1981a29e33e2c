package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_blk4.cpp: pipe(collector-less farm1, wrapped collector-less farm2) where
 * farm2's emitter forwards input tasks, drops what comes back, and broadcasts EOS once each of farm1's workers
 * ended; every task still comes back before the loop ends.
 *
 * <p>Partly mirrored: farm1's emitter broadcasts BLK/NBLK to switch between blocking and non-blocking mode
 * mid-stream; a per-item switch is out of scope, so the whole program is run under each wait strategy.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FarmIntoWrappedFarmWaitModesTest {
    private static final int NWORKERS = 3;
    private static final long NTASKS = 1000;

    static final class Emitter1 extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < NTASKS; i++) {
                sendOut(i + 10);
            }
            return eos();
        }
    }

    static final class Emitter2 extends MultiInputNode<Long, Long> {
        final List<Long> fromInput = new ArrayList<>();
        final List<List<Long>> backPerChannel = new ArrayList<>();
        final List<Integer> endedChannels = new ArrayList<>();
        int feedbacks;

        @Override
        protected void svcInit() {
            for (int i = 0; i < NWORKERS; i++) {
                backPerChannel.add(new ArrayList<>());
            }
        }

        @Override
        protected Long svc(Long t) {
            feedbacks = feedbackChannels();
            if (!fromFeedback()) {
                fromInput.add(t);
                return t;
            }
            backPerChannel.get(inputChannel()).add(t);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            endedChannels.add(channel);
            if (endedChannels.size() == NWORKERS) {
                sendOut(eos()); // FastFlow: lb->broadcast_task(EOS)
            }
        }
    }

    static final class Pass extends Node<Long, Long> {
        final List<Long> got = new ArrayList<>();

        @Override
        protected Long svc(Long task) {
            got.add(task);
            return task;
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldGetEveryTaskBackAfterBroadcastingEos(WaitStrategy strategy) {
        List<Pass> workers1 = new ArrayList<>();
        List<Pass> workers2 = new ArrayList<>();
        for (int i = 0; i < NWORKERS; i++) {
            workers1.add(new Pass());
            workers2.add(new Pass());
        }
        Emitter2 emitter2 = new Emitter2();
        Farm farm1 = Farm.of(workers1).emitter(new Emitter1());
        Farm farm2 = Farm.of(workers2).emitter(emitter2).wrapAround();
        new Pipeline(farm1, farm2)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(100));

        List<Long> all = LongStream.range(10, NTASKS + 10).boxed().toList();
        List<Long> farm1Output = new ArrayList<>();
        workers1.forEach(w -> farm1Output.addAll(w.got));
        assertThat(farm1Output).containsExactlyInAnyOrderElementsOf(all);
        assertThat(emitter2.endedChannels).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(emitter2.fromInput).containsExactlyInAnyOrderElementsOf(all);
        assertThat(emitter2.feedbacks).isEqualTo(NWORKERS);
        for (int w = 0; w < NWORKERS; w++) {
            // feedback channel w is farm2's worker w: everything it ran came back, in order
            assertThat(emitter2.backPerChannel.get(w))
                    .as("back from worker %d", w)
                    .containsExactlyElementsOf(workers2.get(w).got);
        }
        assertThat(workers2.stream().mapToLong(w -> w.got.size()).sum()).isEqualTo(NTASKS);
    }
}
