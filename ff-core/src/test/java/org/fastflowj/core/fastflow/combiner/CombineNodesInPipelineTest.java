package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_combine10.cpp: combine_nodes_in_pipeline fuses a stage with a farm's emitter,
 * a farm's collector with a stage, or one farm's collector with the next farm's emitter (also for two ordered
 * farms), and the last stage still counts every task (in order, after the ordered farms).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CombineNodesInPipelineTest {

    private static final long NTASKS = 500;
    private static final int NWORKERS = 4;
    private static final List<Long> ALL =
            LongStream.rangeClosed(1, NTASKS).boxed().toList();

    /** Source: 1..ntasks, with a short pause before each. */
    static final class First extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= NTASKS; i++) {
                LockSupport.parkNanos(3_000);
                sendOut(i);
            }
            return eos();
        }
    }

    /** Worker 0 and worker 2 are slower than the others. */
    static final class Worker extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            if (id() == 0) {
                LockSupport.parkNanos(50_000);
            } else if (id() == 2) {
                LockSupport.parkNanos(20_000);
            }
            return in;
        }
    }

    static final class Last extends Node<Long, Void> {
        final List<Long> got = new ArrayList<>();
        long counter;

        @Override
        protected Void svc(Long in) {
            got.add(in);
            ++counter;
            return goOn();
        }
    }

    static final class Emitter extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            sendOut(in);
            return goOn();
        }
    }

    static final class Collector extends MultiInputNode<Long, Long> {
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

    private static List<Worker> workers(int n) {
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            workers.add(new Worker());
        }
        return workers;
    }

    /** TEST1: two sequential nodes give the plain pipeline(first, last). */
    @Test
    void shouldRunTwoSequentialStages() {
        Last last = new Last();
        new Pipeline(new First(), last).runAndWaitEnd();

        assertThat(last.counter).isEqualTo(NTASKS);
        assertThat(last.got).containsExactlyElementsOf(ALL);
    }

    /** TEST2: first is fused with the farm's emitter, so the fused emitter is the farm's source. */
    @Test
    void shouldFuseTheFirstStageWithTheFarmsEmitter() {
        Last last = new Last();
        Collector collector = new Collector();
        Pipeline pipe = new Pipeline(
                Farm.of(workers(NWORKERS))
                        .emitter(Combiner.of(new First(), new Emitter()))
                        .collector(collector),
                last);
        pipe.runAndWaitEnd();

        assertThat(last.counter).isEqualTo(NTASKS);
        assertThat(last.got).containsExactlyInAnyOrderElementsOf(ALL);
        assertThat(collector.inputs).isEqualTo(NWORKERS);
        assertThat(pipe.stats().nodes()).hasSize(1 + NWORKERS + 1 + 1);
    }

    /** TEST3 and TEST6: last is fused with the farm's collector; the C++ TEST6 prints 7 threads. */
    @Test
    void shouldFuseTheFarmsCollectorWithTheLastStage() {
        Last last = new Last();
        Collector collector = new Collector();
        Pipeline pipe = new Pipeline(
                new First(), Farm.of(workers(NWORKERS)).emitter(new Emitter()).collector(Combiner.of(collector, last)));
        pipe.runAndWaitEnd();

        assertThat(last.counter).isEqualTo(NTASKS);
        assertThat(last.got).containsExactlyInAnyOrderElementsOf(ALL);
        assertThat(collector.inputs).isEqualTo(NWORKERS);
        assertThat(pipe.stats().nodes()).hasSize(7);
    }

    /** TEST4: farm1 loses its collector C, and comb(C, E) becomes farm2's emitter. */
    @Test
    void shouldFuseTheFirstFarmsCollectorWithTheSecondFarmsEmitter() {
        Last last = new Last();
        Collector collector = new Collector();
        new Pipeline(
                        new First(),
                        Farm.of(workers(NWORKERS)),
                        Farm.of(workers(NWORKERS)).emitter(Combiner.of(collector, new Emitter())),
                        last)
                .runAndWaitEnd();

        assertThat(last.counter).isEqualTo(NTASKS);
        assertThat(last.got).containsExactlyInAnyOrderElementsOf(ALL);
        assertThat(collector.inputs).isEqualTo(NWORKERS);
    }

    /**
     * TEST5: two ordered farms (4 and 5 workers). combine_ofarm_farm fuses farm1's ordering collector, C and farm2's
     * emitter E into one node; here the ordering collector is its own thread (an ordered farm always has one), with
     * C as farm1's collector and E as farm2's emitter. Last checks that it gets 1..ntasks in order.
     */
    @Test
    void shouldKeepTheOrderThroughTwoOrderedFarms() {
        Last last = new Last();
        Collector collector = new Collector();
        new Pipeline(
                        new First(),
                        Farm.of(workers(NWORKERS)).collector(collector).ordered(),
                        Farm.of(workers(NWORKERS + 1)).emitter(new Emitter()).ordered(),
                        last)
                .runAndWaitEnd();

        assertThat(last.counter).isEqualTo(NTASKS);
        assertThat(last.got).containsExactlyElementsOf(ALL);
    }
}
