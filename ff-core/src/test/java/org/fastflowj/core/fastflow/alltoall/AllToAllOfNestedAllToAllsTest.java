package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_combine14.cpp: an all-to-all whose L-Workers are two all-to-alls (a generator
 * feeding two-stage pipelines, whose last stage is fused with a multi-output helper by combine_with_laststage) and
 * whose R-Worker is an all-to-all of two comb(miHelper, Collector) feeding one sink; every collector hears from
 * all four pipelines and is told of the end of stream once, and the sink gets every task of both generators.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AllToAllOfNestedAllToAllsTest {

    private static final int NWORKERS = 2;
    private static final long NTASKS = 1000;

    static final class Generator extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= NTASKS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    static final class MiHelper extends MultiInputNode<Long, Long> {
        int inputs;

        @Override
        protected void svcInit() {
            inputs = inputChannels();
        }

        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class MoHelper extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Worker extends Node<Long, Long> {
        long got;

        @Override
        protected Long svc(Long in) {
            got++;
            return in;
        }
    }

    static final class Collector extends MultiOutputNode<Long, Long> {
        long got;
        int eosNotified;

        @Override
        protected Long svc(Long in) {
            got++;
            return in;
        }

        @Override
        protected void eosNotify(int channel) {
            eosNotified++;
        }
    }

    static final class Sink extends MultiInputNode<Long, Void> {
        long count;
        long sum;
        int inputs;

        @Override
        protected void svcInit() {
            inputs = inputChannels();
        }

        @Override
        protected Void svc(Long in) {
            count++;
            sum += in;
            return goOn();
        }
    }

    /** One L-Worker: pipe(a2a(Generator | pipe(comb(miHelper, Worker), comb(Worker, moHelper)) x nworkers)). */
    private static Pipeline leftSide(List<MiHelper> helpers, List<Worker> firstWorkers) {
        List<BuildingBlock> pipes = new ArrayList<>();
        for (int i = 0; i < NWORKERS; i++) {
            MiHelper helper = new MiHelper();
            Worker first = new Worker();
            helpers.add(helper);
            firstWorkers.add(first);
            // the second stage is Worker fused with moHelper, as combine_with_laststage(pipe, moHelper) leaves it
            pipes.add(new Pipeline(Combiner.of(helper, first), Combiner.of(new Worker(), new MoHelper())));
        }
        return new Pipeline(new AllToAll().firstSet(new Generator()).secondSet(pipes));
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverBothGeneratorsTasksThroughEveryCollectorToTheSink(WaitStrategy strategy) {
        List<MiHelper> innerHelpers = new ArrayList<>();
        List<Worker> workers1 = new ArrayList<>();
        List<Worker> workers2 = new ArrayList<>();
        Pipeline pipe1 = leftSide(innerHelpers, workers1);
        Pipeline pipe2 = leftSide(innerHelpers, workers2);

        MiHelper h1 = new MiHelper();
        MiHelper h2 = new MiHelper();
        Collector c1 = new Collector();
        Collector c2 = new Collector();
        Sink sink = new Sink();
        Pipeline pipe3 = new Pipeline(new AllToAll()
                .firstSet(Combiner.of(h1, c1), Combiner.of(h2, c2))
                .secondSet(sink));

        AllToAll a2a = new AllToAll().firstSet(pipe1, pipe2).secondSet(pipe3);
        a2a.runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        // FastFlow prints a2a.cardinality(): 2 x (1 generator + 2 x 2 stages) + 2 collectors + 1 sink
        assertThat(a2a.stats().nodes()).hasSize(13);
        assertThat(innerHelpers).extracting(h -> h.inputs).containsOnly(1);
        assertThat(workers1.stream().mapToLong(w -> w.got).sum()).isEqualTo(NTASKS);
        assertThat(workers2.stream().mapToLong(w -> w.got).sum()).isEqualTo(NTASKS);
        // every multi-output exit of the left side (2 x 2 pipelines) feeds both collectors
        assertThat(h1.inputs).isEqualTo(2 * NWORKERS);
        assertThat(h2.inputs).isEqualTo(2 * NWORKERS);
        assertThat(c1.eosNotified).isEqualTo(1);
        assertThat(c2.eosNotified).isEqualTo(1);
        assertThat(c1.got + c2.got).isEqualTo(2 * NTASKS);
        assertThat(sink.inputs).isEqualTo(2);
        assertThat(sink.count).isEqualTo(2 * NTASKS);
        assertThat(sink.sum).isEqualTo(2 * (NTASKS * (NTASKS + 1) / 2));
    }
}
