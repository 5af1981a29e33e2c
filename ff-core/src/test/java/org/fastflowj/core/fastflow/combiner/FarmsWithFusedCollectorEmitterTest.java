package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Behaviour of FastFlow's tests/test_combine7.cpp: combine_farms(farm1, &C1, farm2, &E2, true) removes farm1's collector and makes comb(C1, E2) farm2's emitter; the multi-input C1 hears from each first-farm worker and the second collector counts every task. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FarmsWithFusedCollectorEmitterTest {

    private static final int NWORKERS1 = 2;
    private static final int NWORKERS2 = 3;
    private static final long NTASKS = 150;

    static final class Emitter1 extends MultiOutputNode<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= NTASKS; i++) {
                sendOutTo(i, (int) (i % NWORKERS1));
            }
            return eos();
        }
    }

    static final class Worker extends Node<Long, Long> {
        final List<Long> got = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            got.add(in);
            return in;
        }
    }

    /** farm1's collector, a multi-input node: input channel i is farm1's worker i. */
    static final class Collector1 extends MultiInputNode<Long, Long> {
        final List<List<Long>> perChannel = new ArrayList<>();
        int inputs;

        @Override
        protected void svcInit() {
            inputs = inputChannels();
            for (int i = 0; i < inputs; i++) {
                perChannel.add(new ArrayList<>());
            }
        }

        @Override
        protected Long svc(Long in) {
            perChannel.get(inputChannel()).add(in);
            return in;
        }
    }

    /** farm2's emitter, a plain node: its outputs go round-robin to farm2's workers. */
    static final class Emitter2 extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Collector2 extends MultiInputNode<Long, Void> {
        final List<Long> got = new ArrayList<>();
        long ntasks = NTASKS;
        int inputs;
        Long leftAtEnd;

        @Override
        protected void svcInit() {
            inputs = inputChannels();
        }

        @Override
        protected Void svc(Long in) {
            --ntasks;
            got.add(in);
            return goOn();
        }

        @Override
        protected void svcEnd() {
            leftAtEnd = ntasks;
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverEveryTaskThroughTheFusedCollectorAndEmitter(WaitStrategy strategy) {
        List<Worker> workers1 = List.of(new Worker(), new Worker());
        List<Worker> workers2 = List.of(new Worker(), new Worker(), new Worker());
        Collector1 c1 = new Collector1();
        Collector2 c2 = new Collector2();
        Pipeline pipe = new Pipeline(
                Farm.of(workers1).emitter(new Emitter1()),
                Farm.of(workers2).emitter(Combiner.of(c1, new Emitter2())).collector(c2));
        pipe.runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        List<Long> all = LongStream.rangeClosed(1, NTASKS).boxed().toList();
        for (int k = 0; k < NWORKERS1; k++) {
            int worker = k;
            List<Long> mine = all.stream().filter(i -> i % NWORKERS1 == worker).toList();
            assertThat(workers1.get(k).got).as("Worker1 %d", k).containsExactlyElementsOf(mine);
            assertThat(c1.perChannel.get(k)).as("C1 channel %d", k).containsExactlyElementsOf(mine);
        }
        assertThat(c1.inputs).isEqualTo(NWORKERS1);
        assertThat(workers2.stream().flatMap(w -> w.got.stream()).toList()).containsExactlyInAnyOrderElementsOf(all);
        assertThat(c2.leftAtEnd).isZero();
        assertThat(c2.got).containsExactlyInAnyOrderElementsOf(all);
        assertThat(c2.inputs).isEqualTo(NWORKERS2);
        // farm1 lost its collector, C1 and E2 share farm2's emitter thread
        assertThat(pipe.stats().nodes()).hasSize(1 + NWORKERS1 + 1 + NWORKERS2 + 1);
    }
}
