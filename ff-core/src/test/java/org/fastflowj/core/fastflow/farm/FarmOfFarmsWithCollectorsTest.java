package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test6.cpp: a farm (emitter, collector) whose three workers are farms of 2, 3 and 1 workers with default collectors; the outer collector gets every task once. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FarmOfFarmsWithCollectorsTest {

    /** Emits streamlen-1, ..., 0, then EOS. */
    static final class Emitter extends Node<Void, Integer> {
        private int ntask;

        Emitter(int ntask) {
            this.ntask = ntask;
        }

        @Override
        protected Integer svc(Void none) {
            int task = --ntask;
            return ntask < 0 ? eos() : Integer.valueOf(task);
        }
    }

    static final class Worker extends Node<Integer, Integer> {
        final List<Integer> got = new ArrayList<>();

        @Override
        protected Integer svc(Integer task) {
            got.add(task);
            return task;
        }
    }

    static final class Collector extends Node<Integer, Integer> {
        final List<Integer> got = new ArrayList<>();

        @Override
        protected Integer svc(Integer task) {
            got.add(task);
            return task;
        }
    }

    private static List<Worker> workers(int n) {
        List<Worker> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(new Worker());
        }
        return list;
    }

    @Test
    void shouldDeliverEveryTaskOnceThroughTheInnerFarms() {
        int streamlen = 1000;
        List<Worker> w1 = workers(2);
        List<Worker> w2 = workers(3);
        List<Worker> w3 = workers(1);
        Farm farm1 = Farm.of(w1).collector(new Worker());
        Farm farm2 = Farm.of(w2).collector(new Worker());
        Farm farm3 = Farm.of(w3).collector(new Worker());
        Collector collector = new Collector();
        Farm.of(farm1, farm2, farm3)
                .emitter(new Emitter(streamlen))
                .collector(collector)
                .runAndWaitEnd();

        List<Integer> expected = IntStream.range(0, streamlen).boxed().toList();
        assertThat(collector.got).containsExactlyInAnyOrderElementsOf(expected);
        List<Integer> seenByInner = new ArrayList<>();
        for (List<Worker> ws : List.of(w1, w2, w3)) {
            ws.forEach(w -> seenByInner.addAll(w.got));
        }
        assertThat(seenByInner).containsExactlyInAnyOrderElementsOf(expected);
        // every inner farm took part
        assertThat(w1.stream().mapToInt(w -> w.got.size()).sum()).isPositive();
        assertThat(w2.stream().mapToInt(w -> w.got.size()).sum()).isPositive();
        assertThat(w3.get(0).got).isNotEmpty();
    }
}
