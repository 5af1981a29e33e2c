package org.fastflowj.patterns.fastflow.map;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.patterns.ParallelFor;
import org.fastflowj.patterns.ParallelMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_map.cpp: a farm of two source workers, each filling an array of 100
 * with {@code A[i] = i} by a parallel for and sending it, then a map stage adding {@code i} to each
 * element: the last stage receives two arrays of {@code 2 i}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MapStageAfterFarmTest {
    static final int SIZE = 100;

    static final class MapWorker extends Node<Void, Long[]> {
        @Override
        protected Long[] svc(Void none) {
            Long[] a = new Long[SIZE];
            try (ParallelFor pf = new ParallelFor(3)) {
                pf.parallelFor(0, a.length, i -> a[(int) i] = i);
            }
            sendOut(a);
            return eos();
        }
    }

    @Test
    void shouldDeliverTwoArraysOfDoubledIndices() {
        List<Long[]> received = new ArrayList<>();
        new Pipeline(
                        Farm.of(2, MapWorker::new),
                        ParallelMap.<Long, Long>of(2, x -> x + x, Long[]::new),
                        Node.<Long[]>sink(received::add))
                .runAndWaitEnd();
        assertThat(received).hasSize(2).allSatisfy(a -> {
            for (int i = 0; i < SIZE; i++) {
                assertThat(a[i]).isEqualTo(2L * i);
            }
        });
    }
}
