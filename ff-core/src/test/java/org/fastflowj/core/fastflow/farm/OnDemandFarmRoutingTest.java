package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_farm2.cpp: a multi-output emitter routes task i to worker i % n of an on-demand farm, a multi-input collector counts every task. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OnDemandFarmRoutingTest {
    private static final int WORKERS = 4;
    private static final int TASKS = 10_000;

    /** Source emitter: task i goes to worker i % workers, whatever the farm's default policy. */
    static final class ModuloEmitter extends MultiOutputNode<Void, Long> {
        private final int workers;

        ModuloEmitter(int workers) {
            this.workers = workers;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= TASKS; i++) {
                sendOutTo(i, (int) (i % workers));
            }
            return eos();
        }
    }

    static final class Worker extends Node<Long, Long> {
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Long svc(Long task) {
            seen.add(task);
            return task;
        }
    }

    /** Counts down the expected tasks; also counts per input channel. */
    static final class CountingCollector extends MultiInputNode<Long, Void> {
        long remaining = TASKS;
        final long[] perChannel = new long[WORKERS];

        @Override
        protected Void svc(Long task) {
            remaining--;
            perChannel[inputChannel()]++;
            return goOn();
        }
    }

    private static List<Long> moduloClass(int k) {
        return LongStream.rangeClosed(1, TASKS)
                .filter(i -> i % WORKERS == k)
                .boxed()
                .toList();
    }

    @Test
    void shouldDeliverEachTaskToTheChosenWorkerOfAnOnDemandFarm() {
        List<Worker> workers = List.of(new Worker(), new Worker(), new Worker(), new Worker());
        CountingCollector collector = new CountingCollector();
        Farm.of(workers)
                .emitter(new ModuloEmitter(WORKERS))
                .collector(collector)
                .onDemand()
                .runAndWaitEnd();

        assertThat(collector.remaining).isZero();
        for (int k = 0; k < WORKERS; k++) {
            assertThat(workers.get(k).seen).containsExactlyElementsOf(moduloClass(k));
            assertThat(collector.perChannel[k]).isEqualTo(TASKS / WORKERS);
        }
    }

    /** The same topology built from blocks, as in the program's alternative branch: pipe(Emitter, A2A(Workers, Collector)). */
    @Test
    void shouldGiveTheSameResultAsPipelineOfEmitterAndOnDemandAllToAll() {
        List<Worker> workers = List.of(new Worker(), new Worker(), new Worker(), new Worker());
        CountingCollector collector = new CountingCollector();
        AllToAll a2a = new AllToAll().firstSet(workers).secondSet(collector).onDemand();
        new Pipeline(new ModuloEmitter(WORKERS), a2a).runAndWaitEnd();

        assertThat(collector.remaining).isZero();
        for (int k = 0; k < WORKERS; k++) {
            assertThat(workers.get(k).seen).containsExactlyElementsOf(moduloClass(k));
            assertThat(collector.perChannel[k]).isEqualTo(TASKS / WORKERS);
        }
    }
}
