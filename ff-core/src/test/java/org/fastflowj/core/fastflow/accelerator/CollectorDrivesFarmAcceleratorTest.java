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

/** Behaviour of FastFlow's tests/test_accelerator3.cpp: a farm's collector drives a second farm as its own accelerator (started in svc_init, fed in svc, drained in svc_end). */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class CollectorDrivesFarmAcceleratorTest {

    static final class Echo extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer task) {
            return task;
        }
    }

    /**
     * The first farm's collector: starts the second farm in svcInit, offloads each task into it, and
     * passes the task on unless a result of the second farm was ready (then it swallows the task);
     * at the end it ends the second farm's input and drains its results.
     */
    static final class OffloadingCollector extends Node<Integer, Integer> {
        private final Farm secondFarm;
        private Accelerator<Integer, Integer> inner;
        final List<Integer> innerResults = new ArrayList<>();
        int polledEarly;
        String drainedOn;

        OffloadingCollector(Farm secondFarm) {
            this.secondFarm = secondFarm;
        }

        @Override
        protected void svcInit() {
            inner = Accelerator.start(secondFarm);
        }

        @Override
        protected Integer svc(Integer task) {
            inner.offload(task);
            Integer ready = inner.pollResult();
            if (ready != null) {
                innerResults.add(ready);
                polledEarly++;
                return goOn();
            }
            return task;
        }

        @Override
        protected void svcEnd() {
            inner.endInput();
            for (Integer r; (r = inner.loadResult()) != null; ) {
                innerResults.add(r);
            }
            inner.waitEnd();
            drainedOn = Thread.currentThread().getName();
        }
    }

    @Test
    void shouldRunASecondFarmAcceleratorFromInsideTheFirstFarmsCollector() {
        int streamLength = 1000;
        List<Integer> stream = IntStream.range(0, streamLength).boxed().toList();
        // the second farm's collector passes tasks on (Collector(NULL) in C++): its results go to the first collector
        Farm secondFarm = Farm.of(4, Echo::new).collector(new Echo());
        OffloadingCollector collector = new OffloadingCollector(secondFarm);
        Farm firstFarm = Farm.of(4, Echo::new).collector(collector);

        Accelerator<Integer, Integer> acc = Accelerator.start(firstFarm);
        for (int i = 0; i < streamLength; i++) {
            acc.offload(i);
        }
        acc.endInput();
        acc.waitEnd(); // the C++ main ignores the first farm's output

        assertThat(collector.innerResults).containsExactlyInAnyOrderElementsOf(stream);
        assertThat(collector.drainedOn).as("svcEnd drained the inner farm").contains("collector");
        // each task the collector did not swallow went on to the first accelerator's output
        List<Integer> outer = new ArrayList<>();
        for (Integer r; (r = acc.loadResult()) != null; ) {
            outer.add(r);
        }
        assertThat(outer).hasSize(streamLength - collector.polledEarly).doesNotHaveDuplicates();
        assertThat(stream).containsAll(outer);
    }
}
