package org.fastflowj.core.fastflow.accelerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_accelerator_pipe2.cpp: an accelerator pipeline whose only stage is a
 * pipeline holding a two-worker farm gives back every offloaded task once, some polled while offloading
 * (load_result_nb), the rest loaded after EOS.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AcceleratorOfNestedPipelineTest {

    /** Prints "Worker id received task" in the C++ test: here it records both, and echoes the task. */
    static final class Worker extends Node<Long, Long> {
        final List<Long> received = new ArrayList<>();
        final List<Integer> ids = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            received.add(in);
            ids.add(id());
            return in;
        }
    }

    static final class Pass extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    @Test
    void shouldGiveBackEveryTaskOffloadedToAPipelineOfAPipelineOfAFarm() {
        Worker w0 = new Worker();
        Worker w1 = new Worker();
        // ff_farm(W, nullptr, nullptr): default emitter and collector
        Farm farm = Farm.of(w0, w1).collector(new Pass());
        Pipeline pipe = new Pipeline(new Pipeline(farm));

        Accelerator<Long, Long> acc = Accelerator.start(pipe);
        List<Long> polled = new ArrayList<>();
        for (long i = 1; i < 100; i++) {
            acc.offload(i);
            Long result = acc.pollResult(); // "try to get results, if there are any"
            if (result != null) {
                polled.add(result);
            }
        }
        acc.endInput(); // offload(FF_EOS)
        List<Long> loaded = new ArrayList<>();
        for (Long r; (r = acc.loadResult()) != null; ) {
            loaded.add(r);
        }
        acc.waitEnd();

        List<Long> expected = LongStream.range(1, 100).boxed().toList();
        List<Long> results = new ArrayList<>(polled);
        results.addAll(loaded);
        assertThat(results).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(acc.isFinished()).isTrue();
        List<Long> processed = new ArrayList<>(w0.received);
        processed.addAll(w1.received);
        assertThat(processed).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(w0.ids).containsOnly(0);
        assertThat(w1.ids).containsOnly(1);
        // each worker handles its share in the order it was offloaded
        assertThat(w0.received).isSorted();
        assertThat(w1.received).isSorted();
    }
}
