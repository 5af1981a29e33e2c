package org.fastflowj.core.fastflow.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.GraphCompiler;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_optimize4.cpp: pipe(First, farm(4 x pipe(farm(2 x Worker1), farm(3 x
 * Worker2))), Last) delivers every task to Last once, as written and optimised.
 *
 * <p>Two optimised shapes are run: the one optimize.hpp builds here (every collector removed, First merged
 * with the outer emitter, Last fed by every Worker2: the inner pipelines are only given remove_collector, so
 * no A2A is introduced in them), and the one the test's comment draws (each inner pipeline of farms as a farm
 * of an A2A of Worker1s and Worker2s).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OptimizedFarmOfPipelinesOfFarmsTest {
    private static final int TASKS = 2000;
    private static final int NWORKERS = 4;
    private static final int INWORKERS1 = 2;
    private static final int INWORKERS2 = 3;

    static final class First extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= TASKS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** Worker1 (slow when its id is 0 or 2) or Worker2 (no work): records its ids and tasks. */
    static final class Worker extends Node<Long, Long> {
        private final boolean slow;
        final List<Long> received = new ArrayList<>();
        final Set<Integer> ids = new HashSet<>();

        Worker(boolean slow) {
            this.slow = slow;
        }

        @Override
        protected Long svc(Long in) {
            ids.add(id());
            if (slow && id() == 0) {
                LockSupport.parkNanos(50_000);
            } else if (slow && id() == 2) {
                LockSupport.parkNanos(20_000);
            }
            received.add(in);
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

    /** The Worker1s and Worker2s of one outer worker. */
    record Group(List<Worker> first, List<Worker> second) {
        static Group fresh() {
            List<Worker> w1 = new ArrayList<>();
            for (int j = 0; j < INWORKERS1; j++) {
                w1.add(new Worker(true));
            }
            List<Worker> w2 = new ArrayList<>();
            for (int j = 0; j < INWORKERS2; j++) {
                w2.add(new Worker(false));
            }
            return new Group(w1, w2);
        }
    }

    private static List<Group> groups() {
        List<Group> groups = new ArrayList<>();
        for (int i = 0; i < NWORKERS; i++) {
            groups.add(Group.fresh());
        }
        return groups;
    }

    private static List<Long> tasksOf(List<Worker> workers) {
        List<Long> tasks = new ArrayList<>();
        for (Worker w : workers) {
            tasks.addAll(w.received);
        }
        return tasks;
    }

    private static void runAndCheck(
            BuildingBlock network, int threads, List<Group> groups, Last last, WaitStrategy strategy) {
        assertThat(GraphCompiler.compile(network).vertices()).hasSize(threads); // "Pipe cardinality"

        network.runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        List<Long> all = LongStream.rangeClosed(1, TASKS).boxed().toList();
        assertThat(last.received).containsExactlyInAnyOrderElementsOf(all);
        List<Long> seenByWorker1 = new ArrayList<>();
        for (Group g : groups) {
            for (int j = 0; j < INWORKERS1; j++) {
                assertThat(g.first().get(j).ids).containsExactly(j);
            }
            for (int j = 0; j < INWORKERS2; j++) {
                assertThat(g.second().get(j).ids).containsExactly(j);
            }
            // the tasks of one outer worker stay in it: its Worker2s get exactly what its Worker1s sent
            assertThat(tasksOf(g.second())).containsExactlyInAnyOrderElementsOf(tasksOf(g.first()));
            seenByWorker1.addAll(tasksOf(g.first()));
        }
        assertThat(seenByWorker1).containsExactlyInAnyOrderElementsOf(all);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverEveryTaskThroughTheOriginalNetwork(WaitStrategy strategy) {
        List<Group> groups = groups();
        List<BuildingBlock> outer = new ArrayList<>();
        for (Group g : groups) {
            outer.add(new Pipeline(
                    Farm.of(g.first()).collector(new Pass()),
                    Farm.of(g.second()).collector(new Pass())));
        }
        Last last = new Last();
        Pipeline pipe = new Pipeline(new First(), Farm.of(outer).collector(new Pass()), last);

        // First, outer emitter and collector, 4 x (emitter, 2, collector, emitter, 3, collector), Last
        runAndCheck(pipe, 40, groups, last, strategy);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverEveryTaskOnceEveryCollectorIsRemoved(WaitStrategy strategy) {
        List<Group> groups = groups();
        List<BuildingBlock> outer = new ArrayList<>();
        for (Group g : groups) {
            outer.add(new Pipeline(Farm.of(g.first()), Farm.of(g.second())));
        }
        Last last = new Last();
        Pipeline pipe = new Pipeline(Farm.of(outer).emitter(new First()), last);

        // First as outer emitter, 4 x (emitter, 2, emitter, 3), Last
        runAndCheck(pipe, 30, groups, last, strategy);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverEveryTaskThroughTheDrawnAllToAllNetwork(WaitStrategy strategy) {
        List<Group> groups = groups();
        List<BuildingBlock> outer = new ArrayList<>();
        for (Group g : groups) {
            outer.add(Farm.of(new AllToAll().firstSet(g.first()).secondSet(g.second())));
        }
        Last last = new Last();
        Pipeline pipe = new Pipeline(Farm.of(outer).emitter(new First()), last);

        // First as outer emitter, 4 x (default emitter, A2A of 2 + 3), Last
        runAndCheck(pipe, 26, groups, last, strategy);
    }
}
