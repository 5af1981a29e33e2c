package org.fastflowj.core.fastflow.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.GraphCompiler;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Behaviour of FastFlow's tests/test_optimize.cpp: pipe(First, six farms, Last) and the topology
 * optimize_static turns it into (farms 1-4 and 5-6 merged into farms of combined workers, joined into an
 * all-to-all, collector removed, First merged with the emitter: pipe(farm(First, A2A(3 x comb(W1..W4),
 * 2 x comb(W5, W6))), Last)) both deliver every task to Last once.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OptimizedPipelineOfFarmsTest {
    private static final int TASKS = 2000;
    private static final int NW1 = 3;
    private static final int NW2 = 2;

    static final class First extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= TASKS; i++) {
                LockSupport.parkNanos(5_000);
                sendOut(i);
            }
            return eos();
        }
    }

    /** Stage k of the six: works a little (30 us for W1..W4, 20 us for W5, W6), passes its task on and counts it. */
    static final class Stage extends Node<Long, Long> {
        final int kind;
        long count;

        Stage(int kind) {
            this.kind = kind;
        }

        @Override
        protected Long svc(Long in) {
            count++;
            LockSupport.parkNanos(kind <= 4 ? 30_000 : 20_000);
            return in;
        }
    }

    static final class Pass extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Last extends Node<Long, Void> {
        final List<Long> received = new ArrayList<>();

        @Override
        protected Void svc(Long in) {
            received.add(in);
            return goOn();
        }
    }

    /** The nodes of one run: every Stage replica, and First and Last. */
    static final class Parts {
        final First first = new First();
        final Last last = new Last();
        final List<Stage> stages = new ArrayList<>();

        Stage stage(int kind) {
            Stage s = new Stage(kind);
            stages.add(s);
            return s;
        }

        /** ff_Farm: default emitter and a default (forwarding) collector. */
        Farm farm(int kind, int workers) {
            List<Stage> w = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                w.add(stage(kind));
            }
            return Farm.of(w).collector(new Pass());
        }

        long countOf(int kind) {
            return stages.stream()
                    .filter(s -> s.kind == kind)
                    .mapToLong(s -> s.count)
                    .sum();
        }
    }

    /** The original network: pipe(First, farm1..farm6, Last), every farm with its collector. */
    static BuildingBlock original(Parts p) {
        return new Pipeline(
                p.first,
                p.farm(1, NW1),
                p.farm(2, NW1),
                p.farm(3, NW1),
                p.farm(4, NW1),
                p.farm(5, NW2),
                p.farm(6, NW2),
                p.last);
    }

    /** After optimize_static: First as the emitter of a collector-less farm of the A2A of combiners, then Last. */
    static BuildingBlock optimized(Parts p) {
        List<BuildingBlock> left = new ArrayList<>();
        for (int i = 0; i < NW1; i++) {
            left.add(Combiner.of(p.stage(1), Combiner.of(p.stage(2), Combiner.of(p.stage(3), p.stage(4)))));
        }
        List<BuildingBlock> right = new ArrayList<>();
        for (int i = 0; i < NW2; i++) {
            right.add(Combiner.of(p.stage(5), p.stage(6)));
        }
        return new Pipeline(
                Farm.of(new AllToAll().firstSet(left).secondSet(right)).emitter(p.first), p.last);
    }

    static Stream<Arguments> networks() {
        List<Arguments> list = new ArrayList<>();
        for (WaitStrategy strategy : List.of(WaitStrategy.BACKOFF, WaitStrategy.BLOCKING)) {
            list.add(Arguments.of(
                    "original", (Function<Parts, BuildingBlock>) OptimizedPipelineOfFarmsTest::original, 30, strategy));
            list.add(Arguments.of(
                    "optimized",
                    (Function<Parts, BuildingBlock>) OptimizedPipelineOfFarmsTest::optimized,
                    7,
                    strategy));
        }
        return list.stream();
    }

    @ParameterizedTest(name = "{0} {3}")
    @MethodSource("networks")
    void shouldDeliverEveryTaskToLastThroughAllSixStages(
            String name, Function<Parts, BuildingBlock> build, int threads, WaitStrategy strategy) {
        Parts parts = new Parts();
        BuildingBlock network = build.apply(parts);
        // "the n. of threads implementing the pipe": 30 as written; First, 3 + 2 combined workers and Last after
        assertThat(GraphCompiler.compile(network).vertices()).hasSize(threads);

        network.runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        assertThat(parts.last.received)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, TASKS).boxed().toList());
        for (int kind = 1; kind <= 6; kind++) {
            assertThat(parts.countOf(kind)).as("tasks through stage %d", kind).isEqualTo(TASKS);
        }
    }
}
