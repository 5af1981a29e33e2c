package org.fastflowj.core.fastflow.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.GraphCompiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_optimize2.cpp: pipe(First, farm(3 x farm(2 x Worker)), Last) delivers
 * every task to Last once, both as written (every farm with its collector) and after optimize_static
 * (First merged with the outer emitter, collectors removed, Last a multi-input node fed by the six workers).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OptimizedFarmOfFarmsTest {
    private static final int TASKS = 300;
    private static final int NW1 = 3;
    private static final int NW2 = 2;

    static final class First extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= TASKS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** Inner farm worker: workers 0 and 1 (that is, all of them) sleep 1 ms per task. */
    static final class Worker extends Node<Long, Long> {
        final List<Long> received = new ArrayList<>();
        final Set<Integer> ids = new HashSet<>();

        @Override
        protected Long svc(Long in) throws InterruptedException {
            ids.add(id());
            if (id() == 0 || id() == 1) {
                Thread.sleep(1); // slow workers, as in the FastFlow test
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

    /** Last, as the multi-input node the optimisation makes it: records the channel of every task. */
    static final class Last extends MultiInputNode<Long, Void> {
        final List<List<Long>> perChannel = new ArrayList<>();
        final List<Long> received = new ArrayList<>();

        @Override
        protected void svcInit() {
            for (int c = 0; c < inputChannels(); c++) {
                perChannel.add(new ArrayList<>());
            }
        }

        @Override
        protected Void svc(Long in) {
            perChannel.get(inputChannel()).add(in);
            received.add(in);
            return goOn();
        }
    }

    private static List<List<Worker>> workers() {
        List<List<Worker>> all = new ArrayList<>();
        for (int i = 0; i < NW1; i++) {
            List<Worker> inner = new ArrayList<>();
            for (int j = 0; j < NW2; j++) {
                inner.add(new Worker());
            }
            all.add(inner);
        }
        return all;
    }

    private static List<Long> allTasks() {
        return LongStream.rangeClosed(1, TASKS).boxed().toList();
    }

    private static void assertWorkersSawEveryTaskOnce(List<List<Worker>> workers) {
        List<Long> seen = new ArrayList<>();
        for (List<Worker> inner : workers) {
            for (int j = 0; j < NW2; j++) {
                assertThat(inner.get(j).ids).as("get_my_id of an inner worker").containsExactly(j);
                seen.addAll(inner.get(j).received);
            }
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(allTasks());
    }

    @Test
    void shouldDeliverEveryTaskThroughTheFarmOfFarmsWithCollectors() {
        List<List<Worker>> workers = workers();
        List<Farm> inner = new ArrayList<>();
        for (List<Worker> w : workers) {
            inner.add(Farm.of(w).collector(new Pass()));
        }
        Last last = new Last();
        Pipeline pipe = new Pipeline(new First(), Farm.of(inner).collector(new Pass()), last);
        // First, outer emitter and collector, 3 x (emitter, 2 workers, collector), Last
        assertThat(GraphCompiler.compile(pipe).vertices()).hasSize(16);

        pipe.runAndWaitEnd();

        assertThat(last.received).containsExactlyInAnyOrderElementsOf(allTasks());
        assertThat(last.perChannel).hasSize(1); // only the outer collector feeds Last
        assertWorkersSawEveryTaskOnce(workers);
    }

    @Test
    void shouldDeliverEveryTaskStraightFromTheInnerWorkersOnceTheCollectorsAreRemoved() {
        List<List<Worker>> workers = workers();
        List<Farm> inner = new ArrayList<>();
        for (List<Worker> w : workers) {
            inner.add(Farm.of(w));
        }
        Last last = new Last();
        Pipeline pipe = new Pipeline(Farm.of(inner).emitter(new First()), last);
        // First as the outer emitter, 3 x (default emitter, 2 workers), Last
        assertThat(GraphCompiler.compile(pipe).vertices()).hasSize(11);

        pipe.runAndWaitEnd();

        assertThat(last.received).containsExactlyInAnyOrderElementsOf(allTasks());
        assertWorkersSawEveryTaskOnce(workers);
        // Last has one input channel per inner worker, and gets each worker's outputs in its order
        assertThat(last.perChannel).hasSize(NW1 * NW2);
        int channel = 0;
        for (List<Worker> w : workers) {
            for (Worker worker : w) {
                assertThat(last.perChannel.get(channel++)).containsExactlyElementsOf(worker.received);
            }
        }
    }
}
