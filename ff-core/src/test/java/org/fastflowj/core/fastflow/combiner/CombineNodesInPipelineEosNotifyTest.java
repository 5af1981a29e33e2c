package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_combine11.cpp: combine_nodes_in_pipeline fuses a batching stage (it holds 10
 * tasks, and sends what is left from eosNotify) after a farm's collector, before a farm's emitter, or uses it as
 * the workers of a farm whose collector is fused with the next farm's emitter; the last stage gets all 1111 tasks.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CombineNodesInPipelineEosNotifyTest {

    private static final long NTASKS = 1111;
    private static final List<Long> ALL =
            LongStream.rangeClosed(1, NTASKS).boxed().toList();

    static final class Generator extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= NTASKS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    static final class Emitter extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            sendOut(in);
            return goOn();
        }
    }

    static final class Worker extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    /** A plain node; its eosNotify does nothing but is counted. */
    static final class Collector extends Node<Long, Long> {
        int eosNotified;

        @Override
        protected Long svc(Long in) {
            return in;
        }

        @Override
        protected void eosNotify(int channel) {
            eosNotified++;
        }
    }

    /** Holds tasks until it has 10, then sends them; sends what is left when told the stream ended. */
    static final class Seq extends Node<Long, Long> {
        private static final int THRESHOLD = 10;
        private final List<Long> held = new ArrayList<>();
        long got;
        int flushedAtEos = -1;
        int eosNotified;

        @Override
        protected Long svc(Long in) {
            got++;
            held.add(in);
            if (held.size() == THRESHOLD) {
                held.forEach(this::sendOut);
                held.clear();
            }
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            eosNotified++;
            flushedAtEos = held.size();
            held.forEach(this::sendOut);
            held.clear();
        }
    }

    static final class Gatherer extends Node<Long, Void> {
        final List<Long> got = new ArrayList<>();
        long cnt;
        Long cntAtEnd;

        @Override
        protected Void svc(Long in) {
            got.add(in);
            ++cnt;
            return goOn();
        }

        @Override
        protected void svcEnd() {
            cntAtEnd = cnt;
        }
    }

    private static List<Worker> workers(int n) {
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            workers.add(new Worker());
        }
        return workers;
    }

    /** The C++ test nests the optimised pipeline in another pipeline before putting it between gen and last. */
    private static void runNested(Gatherer last, Pipeline optimised) {
        new Pipeline(new Generator(), new Pipeline(optimised), last).runAndWaitEnd();
    }

    private static void assertEveryTaskGathered(Gatherer last) {
        assertThat(last.cntAtEnd).isEqualTo(NTASKS);
        assertThat(last.got).containsExactlyInAnyOrderElementsOf(ALL);
    }

    /** TEST1: farm(E, 3 W, C) then seq: seq is fused after the collector. */
    @Test
    void shouldFlushTheBatchFusedAfterTheCollector() {
        Gatherer last = new Gatherer();
        Collector collector = new Collector();
        Seq seq = new Seq();
        runNested(
                last, new Pipeline(Farm.of(workers(3)).emitter(new Emitter()).collector(Combiner.of(collector, seq))));

        assertEveryTaskGathered(last);
        assertThat(seq.got).isEqualTo(NTASKS);
        assertThat(seq.eosNotified).isEqualTo(1);
        assertThat(seq.flushedAtEos).isEqualTo((int) (NTASKS % 10));
        // FastFlow tells a collector filter once per worker; a plain Node here is told once (docs, "Differences")
        assertThat(collector.eosNotified).isEqualTo(1);
    }

    /** TEST2: seq then farm(E, 2 W, C): seq is fused before the emitter, and its last tasks still reach the workers. */
    @Test
    void shouldFlushTheBatchFusedBeforeTheEmitter() {
        Gatherer last = new Gatherer();
        Seq seq = new Seq();
        runNested(
                last,
                new Pipeline(Farm.of(workers(2))
                        .emitter(Combiner.of(seq, new Emitter()))
                        .collector(new Collector())));

        assertEveryTaskGathered(last);
        assertThat(seq.eosNotified).isEqualTo(1);
        assertThat(seq.flushedAtEos).isEqualTo((int) (NTASKS % 10));
    }

    /** TEST3: farm(E, 2 Seq, C0) then farm(E, 2 W, C1): farm0 loses C0, and comb(C0, E) is farm1's emitter. */
    @Test
    void shouldFlushEachBatchingWorkerIntoTheFusedCollectorAndEmitter() {
        Gatherer last = new Gatherer();
        Seq seq0 = new Seq();
        Seq seq1 = new Seq();
        Collector c0 = new Collector();
        runNested(
                last,
                new Pipeline(
                        Farm.of(seq0, seq1).emitter(new Emitter()),
                        Farm.of(workers(2))
                                .emitter(Combiner.of(c0, new Emitter()))
                                .collector(new Collector())));

        assertEveryTaskGathered(last);
        assertThat(seq0.got + seq1.got).isEqualTo(NTASKS);
        for (Seq seq : List.of(seq0, seq1)) {
            assertThat(seq.eosNotified).isEqualTo(1);
            assertThat(seq.flushedAtEos).isEqualTo((int) (seq.got % 10));
        }
        assertThat(c0.eosNotified).isEqualTo(1);
    }
}
