package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Behaviour of FastFlow's tests/test1.cpp: a farm whose emitter counts down from streamlen to 1 hands every task to exactly one worker and the collector gets them all. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FarmEmitterCollectorTest {

    /** Emits streamlen, streamlen-1, ..., 1, then EOS (the C++ emitter returns NULL when its counter goes negative). */
    static final class Emitter extends Node<Void, Integer> {
        private int ntask;

        Emitter(int ntask) {
            this.ntask = ntask;
        }

        @Override
        protected Integer svc(Void none) {
            int task = ntask;
            --ntask;
            return ntask < 0 ? eos() : Integer.valueOf(task);
        }
    }

    static final class Worker extends Node<Integer, Integer> {
        final List<Integer> received = new ArrayList<>();

        @Override
        protected Integer svc(Integer task) {
            received.add(task);
            return task;
        }
    }

    /** Passes tasks on; would end on -1, which never comes. */
    static final class Collector extends Node<Integer, Integer> {
        final List<Integer> received = new ArrayList<>();

        @Override
        protected Integer svc(Integer task) {
            received.add(task);
            return task == -1 ? eos() : task;
        }
    }

    @Test
    void shouldHandTheCountdownToTheOnlyWorkerInOrder() {
        Worker worker = new Worker();
        Collector collector = new Collector();
        Farm.of(worker).emitter(new Emitter(10)).collector(collector).runAndWaitEnd();

        assertThat(worker.received).containsExactly(10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
        assertThat(collector.received).containsExactly(10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void shouldGiveEveryTaskToExactlyOneWorker(int nworkers) {
        int streamlen = 1000;
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < nworkers; i++) {
            workers.add(new Worker());
        }
        Collector collector = new Collector();
        Farm.of(workers).emitter(new Emitter(streamlen)).collector(collector).runAndWaitEnd();

        List<Integer> all = new ArrayList<>();
        for (Worker w : workers) {
            all.addAll(w.received);
            // one emitter: each worker sees its share in emission (descending) order
            assertThat(w.received).isSortedAccordingTo((a, b) -> Integer.compare(b, a));
        }
        List<Integer> expected = new ArrayList<>();
        for (int t = streamlen; t >= 1; t--) {
            expected.add(t);
        }
        assertThat(all).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(collector.received).containsExactlyInAnyOrderElementsOf(expected);
    }
}
