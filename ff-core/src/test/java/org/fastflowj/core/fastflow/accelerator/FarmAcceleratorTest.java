package org.fastflowj.core.fastflow.accelerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_accelerator.cpp: a farm accelerator gives back every offloaded task once, some while offloading (load_result_nb), the rest after EOS (load_result). */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FarmAcceleratorTest {

    /** test_accelerator's worker: hands its task back unchanged, noting which thread ran it. */
    static final class EchoWorker extends Node<Integer, Integer> {
        private final Set<String> threads;

        EchoWorker(Set<String> threads) {
            this.threads = threads;
        }

        @Override
        protected Integer svc(Integer task) {
            threads.add(Thread.currentThread().getName());
            return task;
        }
    }

    @Test
    void shouldGiveBackEveryOffloadedTaskOnceWhetherPolledEarlyOrLoadedAfterTheEnd() {
        int streamLength = 1000;
        Set<String> threads = ConcurrentHashMap.newKeySet();
        // ff_farm(true) with add_collector(NULL): the default gatherer hands results to the caller;
        // here the workers' outputs go straight to the accelerator's output
        Farm farm = Farm.of(3, () -> new EchoWorker(threads));

        Accelerator<Integer, Integer> acc = Accelerator.start(farm);
        List<Integer> polled = new ArrayList<>();
        for (int i = 0; i < streamLength; i++) {
            acc.offload(i);
            Integer early = acc.pollResult(); // load_result_nb: never waits
            if (early != null) {
                polled.add(early);
            }
        }
        acc.endInput(); // offload(FF_EOS)
        List<Integer> loaded = new ArrayList<>();
        for (Integer r; (r = acc.loadResult()) != null; ) {
            loaded.add(r);
        }
        acc.waitEnd();

        List<Integer> all = new ArrayList<>(polled);
        all.addAll(loaded);
        assertThat(all)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, streamLength).boxed().toList());
        assertThat(acc.loadResult()).isNull(); // still null once drained
        assertThat(acc.pollResult()).isNull();
        assertThat(threads).allSatisfy(name -> assertThat(name).matches("ff-.*worker[0-2]"));
    }
}
