package org.fastflowj.core.fastflow.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.GraphCompiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_optimize5.cpp: pipe(Gen, farm(3 x pipe(farm1(2 x W), farm(A2A(2 x W,
 * pipe(farm2(2 x W)))))), Col) has 40 threads with every farm's collector and 30 once the remove_collector
 * optimisation removed them, and it runs to the end either way (the workers drop every task).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RemoveCollectorsCardinalityTest {
    private static final int TASKS = 10;

    static final class Generator extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= TASKS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** Drops every task (returns GO_ON), remembering what it got. */
    static final class Worker extends Node<Long, Long> {
        final List<Long> received = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            received.add(in);
            return goOn();
        }
    }

    static final class Pass extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Collector extends MultiInputNode<Long, Void> {
        boolean initialised;
        boolean ended;
        int channels;
        long received;

        @Override
        protected void svcInit() {
            initialised = true;
            channels = inputChannels();
        }

        @Override
        protected Void svc(Long in) {
            received++;
            return goOn();
        }

        @Override
        protected void svcEnd() {
            ended = true;
        }
    }

    /** One PipeWorker's workers: farm1's two (the only ones that get tasks), and the other four. */
    static final class PipeWorker {
        final List<Worker> farm1Workers = List.of(new Worker(), new Worker());
        final List<Worker> others = List.of(new Worker(), new Worker(), new Worker(), new Worker());

        /** pipe(farm1, farmA2A); with collectors, every farm gets a forwarding one (add_collector(nullptr)). */
        BuildingBlock build(boolean collectors) {
            Farm farm1 = withCollector(Farm.of(farm1Workers), collectors);
            Farm farm2 = withCollector(Farm.of(others.get(2), others.get(3)), collectors);
            AllToAll a2a = new AllToAll().firstSet(others.get(0), others.get(1)).secondSet(new Pipeline(farm2));
            Farm farmA2A = withCollector(Farm.of(a2a), collectors);
            return new Pipeline(farm1, farmA2A);
        }
    }

    private static Farm withCollector(Farm farm, boolean collectors) {
        return collectors ? farm.collector(new Pass()) : farm;
    }

    private static void runAndCheck(boolean collectors, int threads, int collectorChannels) {
        List<PipeWorker> pipeWorkers = List.of(new PipeWorker(), new PipeWorker(), new PipeWorker());
        List<BuildingBlock> workers = new ArrayList<>();
        for (PipeWorker pw : pipeWorkers) {
            workers.add(pw.build(collectors));
        }
        Collector col = new Collector();
        Pipeline pipe = new Pipeline(new Generator(), withCollector(Farm.of(workers), collectors), col);

        assertThat(GraphCompiler.compile(pipe).vertices())
                .as("pipe.cardinality()")
                .hasSize(threads);

        pipe.runAndWaitEnd();

        List<Long> dropped = new ArrayList<>();
        for (PipeWorker pw : pipeWorkers) {
            pw.farm1Workers.forEach(w -> dropped.addAll(w.received));
            assertThat(pw.others).allSatisfy(w -> assertThat(w.received).isEmpty());
        }
        assertThat(dropped)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, TASKS).boxed().toList());
        assertThat(col.initialised).isTrue();
        assertThat(col.ended).isTrue();
        assertThat(col.channels).isEqualTo(collectorChannels);
        assertThat(col.received).isZero();
        assertThat(pipe.stats().nodes()).hasSize(threads).allSatisfy(n -> assertThat(n.itemsIn())
                .isNotNegative());
        assertThat(pipe.stats().nodes().stream().mapToLong(NodeStats::itemsIn).sum())
                .as("Gen's tasks pass the outer emitter and farm1's emitters, then are dropped")
                .isEqualTo(3L * TASKS);
    }

    @Test
    void shouldRunAllFortyThreadsWithTheCollectors() {
        runAndCheck(true, 40, 1);
    }

    @Test
    void shouldRunThirtyThreadsOnceTheCollectorsAreRemoved() {
        // Col is fed directly by the two workers of farm2 in each of the three PipeWorkers
        runAndCheck(false, 30, 6);
    }
}
