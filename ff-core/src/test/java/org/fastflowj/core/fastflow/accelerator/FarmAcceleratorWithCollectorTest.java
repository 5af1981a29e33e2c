package org.fastflowj.core.fastflow.accelerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_accelerator2.cpp: a farm accelerator whose collector consumes every result gets all offloaded tasks and gives nothing back to the caller. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FarmAcceleratorWithCollectorTest {

    static final class CountingWorker extends Node<Integer, Integer> {
        int tasks;

        @Override
        protected Integer svc(Integer task) {
            tasks++;
            return task;
        }
    }

    @Test
    void shouldCollectEveryOffloadedTaskInsideTheFarmAndReturnNoResult() {
        int streamLength = 1000;
        List<CountingWorker> workers = List.of(new CountingWorker(), new CountingWorker(), new CountingWorker());
        List<Integer> received = new ArrayList<>();
        Farm farm = Farm.of(workers)
                .collector(Node.<Integer>sink(received::add)); // takes every result, emits nothing (GO_ON)

        // the C++ program never loads results: it offloads, sends EOS and waits
        Accelerator<Integer, Integer> acc = Accelerator.start(farm);
        for (int i = 0; i < streamLength; i++) {
            acc.offload(i);
        }
        acc.endInput();
        acc.waitEnd();

        assertThat(received)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, streamLength).boxed().toList());
        assertThat(workers.stream().mapToInt(w -> w.tasks).sum()).isEqualTo(streamLength);
        assertThat(acc.pollResult()).isNull();
        assertThat(acc.loadResult()).isNull(); // the block ended without results: no wait
    }

    @Test
    void shouldLetTheProgramWaitOnTheFarmItselfAsFarmWaitDoes() {
        // the C++ program joins with farm.wait() on the farm it offloads to; here: farm.waitEnd(timeout)
        List<Integer> received = new ArrayList<>();
        Farm farm = Farm.of(3, CountingWorker::new).collector(Node.<Integer>sink(received::add));
        Accelerator<Integer, Integer> acc = Accelerator.start(farm);
        try {
            for (int i = 0; i < 100; i++) {
                acc.offload(i);
            }
            acc.endInput();
            assertThat(farm.waitEnd(10, TimeUnit.SECONDS)).isTrue();
            assertThat(received).hasSize(100);
        } finally {
            acc.close();
        }
    }
}
