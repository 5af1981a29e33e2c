package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Behaviour of FastFlow's tests/test_combine4.cpp: combine_farms_a2a turns farm(E, Workers) followed by farm(Workers1, C) into farm(E, A2A(Workers, Workers1), C); the routing emitter's tasks all reach the multi-input collector, as with the two farms in a pipeline. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class FarmsCombinedIntoAllToAllTest {

    private static final int NWORKERS1 = 4;
    private static final int NWORKERS2 = 2;
    private static final long NTASKS = 10_000;

    /** Sends task i to worker i % nworkers. */
    static final class Emitter extends MultiOutputNode<Void, Long> {
        int outputs;

        @Override
        protected Long svc(Void none) {
            outputs = outputChannels();
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

    /** Counts the tasks down, as the C++ collector does, and checks the count in svcEnd. */
    static final class Collector extends MultiInputNode<Long, Void> {
        final List<Long> got = new ArrayList<>();
        final List<Integer> channels = new ArrayList<>();
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
            channels.add(inputChannel());
            return goOn();
        }

        @Override
        protected void svcEnd() {
            leftAtEnd = ntasks;
        }
    }

    enum Shape {
        /** combine_farms_a2a(farm1, farm2): one farm whose only worker is an all-to-all. */
        COMBINED,
        /** The #else branch: the two farms in a pipeline. */
        TWO_FARMS
    }

    @ParameterizedTest
    @EnumSource(Shape.class)
    void shouldRouteEveryTaskThroughBothWorkerSetsToTheCollector(Shape shape) {
        runAndCheck(shape, WaitStrategy.BACKOFF);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldEndTheCombinedFarmUnderEachWaitStrategy(WaitStrategy strategy) {
        runAndCheck(Shape.COMBINED, strategy);
    }

    private static void runAndCheck(Shape shape, WaitStrategy strategy) {
        Emitter emitter = new Emitter();
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < NWORKERS1; i++) {
            workers.add(new Worker());
        }
        List<Worker> workers1 = new ArrayList<>();
        for (int i = 0; i < NWORKERS2; i++) {
            workers1.add(new Worker());
        }
        Collector collector = new Collector();
        BuildingBlock program = shape == Shape.COMBINED
                ? Farm.of(new AllToAll().firstSet(workers).secondSet(workers1))
                        .emitter(emitter)
                        .collector(collector)
                : new Pipeline(
                        Farm.of(workers).emitter(emitter), Farm.of(workers1).collector(collector));
        program.runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        assertThat(emitter.outputs).isEqualTo(NWORKERS1);
        for (int k = 0; k < NWORKERS1; k++) {
            int worker = k;
            assertThat(workers.get(k).got)
                    .as("worker %d", k)
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, NTASKS)
                            .filter(i -> i % NWORKERS1 == worker)
                            .boxed()
                            .toList());
        }
        assertThat(workers1.stream().mapToInt(w -> w.got.size()).sum()).isEqualTo(NTASKS);
        assertThat(collector.leftAtEnd).isZero();
        assertThat(collector.got)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, NTASKS).boxed().toList());
        assertThat(collector.inputs).isEqualTo(NWORKERS2);
        assertThat(collector.channels).containsOnly(0, 1);
        if (shape == Shape.COMBINED) {
            // the default collector of farm1 and the default emitter of farm2 are gone: E + 4 + 2 + C threads
            assertThat(program.stats().nodes())
                    .extracting(NodeStats::name)
                    .containsExactlyInAnyOrder(
                            "ff-farm1-emitter",
                            "ff-a2a1-L0",
                            "ff-a2a1-L1",
                            "ff-a2a1-L2",
                            "ff-a2a1-L3",
                            "ff-a2a1-R0",
                            "ff-a2a1-R1",
                            "ff-farm1-collector");
        }
    }
}
