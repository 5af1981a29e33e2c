package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.core.StreamFixtures.ints;
import static org.fastflowj.core.StreamFixtures.source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.fastflowj.core.StreamFixtures.Sink;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every graph shape delivers each item exactly once whatever the wait strategy and channel size: tiny
 * queues make producers wait on full channels and consumers on empty ones all the time.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WaitStrategyTest {
    private static final int ITEMS = 5000;

    /** BACKOFF and BLOCKING (safe with more threads than cores) times every channel configuration. */
    static Stream<Arguments> oversubscribableOptions() {
        List<Arguments> list = new ArrayList<>();
        for (WaitStrategy strategy : List.of(WaitStrategy.BACKOFF, WaitStrategy.BLOCKING)) {
            for (int capacity : new int[] {1, 2, 16}) {
                list.add(Arguments.of(
                        strategy,
                        "capacity " + capacity,
                        RunOptions.defaults().waitStrategy(strategy).queueCapacity(capacity)));
            }
            list.add(Arguments.of(
                    strategy,
                    "unbounded",
                    RunOptions.defaults().waitStrategy(strategy).unboundedQueues(true)));
        }
        return list.stream();
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("oversubscribableOptions")
    void shouldDeliverEveryItemOnceThroughAPipeline(WaitStrategy strategy, String queues, RunOptions options) {
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(ITEMS), Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x - 1), sink)
                .runAndWaitEnd(options);

        assertThat(sink.items).containsExactlyElementsOf(ints(ITEMS));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("oversubscribableOptions")
    void shouldDeliverEveryItemOnceThroughAFarmWithCollector(WaitStrategy strategy, String queues, RunOptions options) {
        Farm farm = Farm.of(3, () -> Node.of((Integer x) -> x)).collector(Node.of((Integer x) -> x));

        assertThat(itemsThrough(farm, options)).containsExactlyInAnyOrderElementsOf(ints(ITEMS));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("oversubscribableOptions")
    void shouldDeliverEveryItemOnceThroughAnOnDemandFarm(WaitStrategy strategy, String queues, RunOptions options) {
        Farm farm = Farm.of(3, () -> Node.of((Integer x) -> x)).onDemand().collector(Node.of((Integer x) -> x));

        assertThat(itemsThrough(farm, options)).containsExactlyInAnyOrderElementsOf(ints(ITEMS));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("oversubscribableOptions")
    void shouldDeliverEveryItemOnceThroughAnAllToAll(WaitStrategy strategy, String queues, RunOptions options) {
        AllToAll a2a = new AllToAll()
                .firstSet(Node.of((Integer x) -> x), Node.of((Integer x) -> x))
                .secondSet(Node.of((Integer x) -> x), Node.of((Integer x) -> x), Node.of((Integer x) -> x));

        assertThat(itemsThrough(a2a, options)).containsExactlyInAnyOrderElementsOf(ints(ITEMS));
    }

    /** Runs {@code source(ITEMS) -> middle -> sink} and returns what the sink got, in arrival order. */
    private static List<Integer> itemsThrough(BuildingBlock middle, RunOptions options) {
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(ITEMS), middle, sink).runAndWaitEnd(options);
        return sink.items;
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("oversubscribableOptions")
    void shouldDeliverEveryItemOnceRoundAWrappedAroundPipeline(
            WaitStrategy strategy, String queues, RunOptions options) {
        int tasks = 500;
        LoopStarter head = new LoopStarter(tasks);

        new Pipeline(head, Node.of((Integer x) -> x)).wrapAround().runAndWaitEnd(options);

        synchronized (head.back) {
            assertThat(head.back).containsExactlyInAnyOrderElementsOf(ints(tasks));
        }
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("oversubscribableOptions")
    void shouldDeliverEveryItemOnceThroughAnOrderedFarmInOrder(
            WaitStrategy strategy, String queues, RunOptions options) {
        Farm farm = Farm.of(3, () -> Node.of((Integer x) -> x)).ordered(8);

        assertThat(itemsThrough(farm, options)).containsExactlyElementsOf(ints(ITEMS));
    }

    /** Heads a feedback loop: sends {@code tasks} items on its first call, ends when all came back. */
    static final class LoopStarter extends Node<Integer, Integer> {
        private final int tasks;
        final List<Integer> back = Collections.synchronizedList(new ArrayList<>());

        LoopStarter(int tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Integer svc(Integer in) {
            if (in == null) {
                for (int i = 0; i < tasks; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            back.add(in);
            return back.size() == tasks ? eos() : goOn();
        }
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("oversubscribableOptions")
    void shouldDeliverEveryItemOnceRoundAWrappedAroundFarm(WaitStrategy strategy, String queues, RunOptions options) {
        LoopStarter emitter = new LoopStarter(1000);
        Farm farm = Farm.of(3, () -> Node.of((Integer x) -> x))
                .emitter(emitter)
                .collector(Node.of((Integer x) -> x))
                .wrapAround();

        farm.runAndWaitEnd(options);

        assertThat(emitter.back).containsExactlyInAnyOrderElementsOf(ints(1000));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("oversubscribableOptions")
    void shouldDeliverEveryItemOnceRoundAWrappedAroundAllToAll(
            WaitStrategy strategy, String queues, RunOptions options) {
        LoopStarter l0 = new LoopStarter(1000);
        AllToAll loop = new AllToAll().firstSet(l0).secondSet(Node.of((Integer x) -> x), Node.of((Integer x) -> x));

        loop.wrapAround().runAndWaitEnd(options);

        assertThat(l0.back).containsExactlyInAnyOrderElementsOf(ints(1000));
    }

    @ParameterizedTest(name = "capacity {0}")
    @ValueSource(ints = {1, 16, 2048})
    void shouldDeliverEveryItemOnceWithBusySpinOnTwoThreads(int capacity) {
        Sink<Integer> sink = new Sink<>();

        new Pipeline(source(ITEMS), sink)
                .runAndWaitEnd(RunOptions.defaults()
                        .waitStrategy(WaitStrategy.BUSY_SPIN)
                        .queueCapacity(capacity));

        assertThat(sink.items).containsExactlyElementsOf(ints(ITEMS));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("oversubscribableOptions")
    void shouldDeliverEveryItemOnceFromManyProducersToOneMultiInputSink(
            WaitStrategy strategy, String queues, RunOptions options) {
        Sink<Integer> sink = new Sink<>();

        new Pipeline(Farm.of(4, () -> source(ITEMS / 4)), sink).runAndWaitEnd(options);

        List<Integer> expected = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            expected.addAll(ints(ITEMS / 4));
        }
        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(expected);
    }
}
