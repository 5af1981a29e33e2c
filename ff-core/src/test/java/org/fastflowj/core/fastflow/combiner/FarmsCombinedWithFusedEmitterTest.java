package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Behaviour of FastFlow's tests/test_combine5.cpp: combine_farms_a2a(farm1, E2, farm2) gives farm(E, A2A(comb(Worker, E2), Worker1), C), each first-set worker fused with its own copy of farm2's emitter, and the collector counts every task. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FarmsCombinedWithFusedEmitterTest {

    private static final int NWORKERS2 = 2;
    private static final long NTASKS = 1000;

    /** Sends task i to worker i % nworkers. */
    static final class Emitter extends MultiOutputNode<Void, Long> {
        private final int nworkers;

        Emitter(int nworkers) {
            this.nworkers = nworkers;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= NTASKS; i++) {
                sendOutTo(i, (int) (i % nworkers));
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

    /** farm2's emitter: forwards with sendOut and returns goOn(); fused after each first-set worker. */
    static final class Emitter2 extends Node<Long, Long> {
        final List<Long> got = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            got.add(in);
            sendOut(in);
            return goOn();
        }
    }

    static final class Collector extends MultiInputNode<Long, Void> {
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

    @ParameterizedTest(name = "nworkers1 = {0}")
    @ValueSource(ints = {1, 3})
    void shouldPassEveryTaskThroughTheFusedEmittersToTheCollector(int nworkers1) {
        List<Worker> workers = new ArrayList<>();
        List<Emitter2> emitters2 = new ArrayList<>();
        List<Combiner<Long, Long>> firstSet = new ArrayList<>();
        for (int i = 0; i < nworkers1; i++) {
            Worker w = new Worker();
            Emitter2 e2 = new Emitter2();
            workers.add(w);
            emitters2.add(e2);
            firstSet.add(Combiner.of(w, e2));
        }
        List<Worker> workers1 = new ArrayList<>();
        for (int i = 0; i < NWORKERS2; i++) {
            workers1.add(new Worker());
        }
        Collector collector = new Collector();
        Farm farm = Farm.of(new AllToAll().firstSet(firstSet).secondSet(workers1))
                .emitter(new Emitter(nworkers1))
                .collector(collector);
        farm.runAndWaitEnd();

        for (int k = 0; k < nworkers1; k++) {
            int worker = k;
            List<Long> mine = LongStream.rangeClosed(1, NTASKS)
                    .filter(i -> i % nworkers1 == worker)
                    .boxed()
                    .toList();
            assertThat(workers.get(k).got).as("worker %d", k).containsExactlyElementsOf(mine);
            assertThat(emitters2.get(k).got).as("its Emitter2").containsExactlyElementsOf(mine);
        }
        assertThat(workers1).allSatisfy(w -> assertThat(w.got).isNotEmpty());
        assertThat(workers1.stream().mapToInt(w -> w.got.size()).sum()).isEqualTo(NTASKS);
        assertThat(collector.leftAtEnd).isZero();
        assertThat(collector.got)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, NTASKS).boxed().toList());
        assertThat(collector.inputs).isEqualTo(NWORKERS2);
        // one thread per fused worker: emitter + nworkers1 + nworkers2 + collector
        assertThat(farm.stats().nodes()).hasSize(1 + nworkers1 + NWORKERS2 + 1);
    }
}
