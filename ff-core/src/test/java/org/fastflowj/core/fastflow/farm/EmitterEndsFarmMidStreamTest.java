package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_eosw.cpp: in pipe(first, farm(emitter, 2 workers, collector), last) the
 * emitter ends the workers at the fifth item (EOSW); the collector, told once per worker, ends the stream for
 * the last stage, which gets items 1..4 only, and every node's svc_end runs.
 *
 * <p>We have no EOSW (an end that stays inside the farm): the emitter returns eos(), which also reaches the
 * collector, so the collector's own EOS for the next stage (needed in FastFlow) changes nothing here.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class EmitterEndsFarmMidStreamTest {
    private static final int NWORKERS = 2;

    static final class First extends Node<Void, Long> {
        private final List<String> ended;

        First(List<String> ended) {
            this.ended = ended;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < 10; i++) {
                sendOut(i + 1);
            }
            return eos();
        }

        @Override
        protected void svcEnd() {
            ended.add("First");
        }
    }

    static final class Emitter extends Node<Long, Long> {
        private final List<String> ended;
        final List<Long> received = new ArrayList<>();

        Emitter(List<String> ended) {
            this.ended = ended;
        }

        @Override
        protected Long svc(Long t) {
            received.add(t);
            return t == 5 ? eos() : t; // FastFlow: EOSW, propagated to the workers only
        }

        @Override
        protected void svcEnd() {
            ended.add("Emitter");
        }
    }

    static final class Worker extends Node<Long, Long> {
        private final List<String> ended;
        final List<Long> received = new ArrayList<>();

        Worker(List<String> ended) {
            this.ended = ended;
        }

        @Override
        protected Long svc(Long t) {
            received.add(t);
            return t;
        }

        @Override
        protected void svcEnd() {
            ended.add("Worker" + id());
        }
    }

    static final class Collector extends MultiInputNode<Long, Long> {
        private final List<String> ended;
        final List<Integer> eosFrom = new ArrayList<>();

        Collector(List<String> ended) {
            this.ended = ended;
        }

        @Override
        protected Long svc(Long t) {
            return t;
        }

        @Override
        protected void eosNotify(int channel) {
            eosFrom.add(channel);
            if (eosFrom.size() >= NWORKERS) {
                sendOut(eos()); // the end of stream for the next stage
            }
        }

        @Override
        protected void svcEnd() {
            ended.add("Collector");
        }
    }

    static final class Last extends Node<Long, Void> {
        private final List<String> ended;
        final List<Long> received = new ArrayList<>();

        Last(List<String> ended) {
            this.ended = ended;
        }

        @Override
        protected Void svc(Long t) {
            received.add(t);
            return goOn();
        }

        @Override
        protected void svcEnd() {
            ended.add("Last");
        }
    }

    @Test
    void shouldEndTheWorkersAtTheFifthItemAndStillEndTheLastStage() {
        List<String> ended = Collections.synchronizedList(new ArrayList<>());
        Emitter emitter = new Emitter(ended);
        Worker w0 = new Worker(ended);
        Worker w1 = new Worker(ended);
        Collector collector = new Collector(ended);
        Last last = new Last(ended);
        Farm farm = Farm.of(w0, w1).emitter(emitter).collector(collector);
        new Pipeline(new First(ended), farm, last).runAndWaitEnd();

        assertThat(emitter.received).containsExactly(1L, 2L, 3L, 4L, 5L);
        List<Long> byWorkers = new ArrayList<>(w0.received);
        byWorkers.addAll(w1.received);
        assertThat(byWorkers).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
        assertThat(last.received).containsExactlyInAnyOrder(1L, 2L, 3L, 4L);
        assertThat(collector.eosFrom).containsExactlyInAnyOrder(0, 1);
        assertThat(ended).containsExactlyInAnyOrder("First", "Emitter", "Worker0", "Worker1", "Collector", "Last");
    }
}
