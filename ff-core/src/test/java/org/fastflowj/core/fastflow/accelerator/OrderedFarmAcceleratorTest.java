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

/** Behaviour of FastFlow's tests/test_accelerator_ofarm.cpp: an ordered farm accelerator gives results in offload order, both those polled early and those loaded after EOS. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class OrderedFarmAcceleratorTest {

    /** A worker that is slower on some tasks, so that workers finish out of order. */
    static final class UnevenWorker extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer task) throws InterruptedException {
            if (task % 97 == id()) {
                Thread.sleep(1); // slower on this task, so results finish out of order
            }
            return task;
        }
    }

    @Test
    void shouldGiveResultsInOffloadOrder() {
        int streamLength = 1000;
        // ff_farm(true) + set_ordered(), no collector given: results reach the caller in order
        Accelerator<Integer, Integer> acc =
                Accelerator.start(Farm.of(3, UnevenWorker::new).ordered());
        List<Integer> results = new ArrayList<>();
        int polledEarly = 0;
        for (int i = 0; i < streamLength; i++) {
            acc.offload(i);
            Integer ready = acc.pollResult();
            if (ready != null) {
                assertThat(ready).isEqualTo(results.size()); // the C++ asserts result == expected
                results.add(ready);
                polledEarly++;
            }
        }
        acc.endInput();
        for (Integer r; (r = acc.loadResult()) != null; ) {
            assertThat(r).isEqualTo(results.size());
            results.add(r);
        }
        acc.waitEnd();

        assertThat(results)
                .containsExactlyElementsOf(
                        IntStream.range(0, streamLength).boxed().toList());
        assertThat(polledEarly).isBetween(0, streamLength);
    }
}
