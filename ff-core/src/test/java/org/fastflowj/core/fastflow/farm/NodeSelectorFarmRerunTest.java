package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Behaviour of FastFlow's tests/test_nodeselector.cpp: one farm (emitter sending 0..19, no collector) is
 * run twice, its workers being node selectors: first with kernel2 selected, then with kernel1; each run's
 * tasks reach only the selected kernel. FastFlow's ff_nodeSelector has no counterpart: it is written here
 * as a node that delegates to the kernel chosen between runs.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class NodeSelectorFarmRerunTest {
    private static final int TASKS = 20;

    static final class Emitter extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < TASKS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** A kernel (an ff_node in C++): records what it got ("kernel1 %ld") and its life cycle. */
    static final class Kernel {
        final List<Long> received = new ArrayList<>();
        final List<Integer> ids = new ArrayList<>();
        int inits;
        int ends;

        void init() {
            inits++;
        }

        void svc(Long in, int id) {
            received.add(in);
            ids.add(id);
        }

        void end() {
            ends++;
        }
    }

    /** ff_nodeSelector: initialises and ends every kernel, runs the selected one on each task. */
    static final class Selector extends Node<Long, Long> {
        final List<Kernel> kernels = List.of(new Kernel(), new Kernel());
        private volatile int selected;

        void selectNode(int index) {
            selected = index;
        }

        @Override
        protected void svcInit() {
            kernels.forEach(Kernel::init);
        }

        @Override
        protected Long svc(Long in) {
            kernels.get(selected).svc(in, id());
            return goOn(); // both kernels return GO_ON
        }

        @Override
        protected void svcEnd() {
            kernels.forEach(Kernel::end);
        }
    }

    private static List<Long> received(List<Selector> selectors, int kernel) {
        List<Long> all = new ArrayList<>();
        for (Selector s : selectors) {
            all.addAll(s.kernels.get(kernel).received);
        }
        return all;
    }

    @ParameterizedTest(name = "{0} farm worker(s)")
    @ValueSource(ints = {1, 3})
    void shouldRunTheSameFarmTwiceWithADifferentKernelSelected(int farmworkers) {
        List<Selector> selectors = new ArrayList<>();
        for (int i = 0; i < farmworkers; i++) {
            selectors.add(new Selector());
        }
        Farm farm = Farm.of(selectors).emitter(new Emitter()); // remove_collector()
        List<Long> tasks = LongStream.range(0, TASKS).boxed().toList();

        selectors.forEach(s -> s.selectNode(1)); // kernel2 first
        farm.runAndWaitEnd(); // run_then_freeze(); wait_freezing()

        assertThat(received(selectors, 1)).containsExactlyInAnyOrderElementsOf(tasks);
        assertThat(received(selectors, 0)).isEmpty();

        selectors.forEach(s -> s.selectNode(0)); // then kernel1
        farm.runAndWaitEnd();

        assertThat(received(selectors, 0)).containsExactlyInAnyOrderElementsOf(tasks);
        assertThat(received(selectors, 1)).containsExactlyInAnyOrderElementsOf(tasks); // nothing more
        for (int i = 0; i < farmworkers; i++) {
            Selector s = selectors.get(i);
            for (Kernel k : s.kernels) {
                assertThat(k.inits).as("nodeInit once per run").isEqualTo(2);
                assertThat(k.ends).as("nodeEnd once per run").isEqualTo(2);
                assertThat(k.ids).containsOnly(i); // the kernels get the selector's id
                assertThat(k.received).isSorted(); // one emitter: each worker's tasks in order
            }
        }
        if (farmworkers == 1) {
            assertThat(selectors.get(0).kernels.get(1).received).containsExactlyElementsOf(tasks);
            assertThat(selectors.get(0).kernels.get(0).received).containsExactlyElementsOf(tasks);
        }
    }
}
