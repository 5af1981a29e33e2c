package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.core.StreamFixtures.infiniteSource;
import static org.fastflowj.core.StreamFixtures.ints;
import static org.fastflowj.core.StreamFixtures.source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.fastflowj.core.StreamFixtures.Arrival;
import org.fastflowj.core.StreamFixtures.CollectByChannel;
import org.fastflowj.core.StreamFixtures.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Ordered farm: outputs leave in input order whatever the workers' speed, filtering or fan-out. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrderedFarmTest {
    private static final long MAX_DELAY_NANOS = 2_000_000;

    static Stream<Arguments> policiesAndStrategies() {
        return Stream.of(
                Arguments.of(false, WaitStrategy.BACKOFF),
                Arguments.of(false, WaitStrategy.BLOCKING),
                Arguments.of(true, WaitStrategy.BACKOFF),
                Arguments.of(true, WaitStrategy.BLOCKING));
    }

    private static Farm policy(Farm farm, boolean onDemand) {
        return onDemand ? farm.onDemand() : farm.roundRobin();
    }

    /** Sleeps a random 0..2 ms (seeded), then returns the item times ten. */
    private static final class RandomDelay extends Node<Integer, Integer> {
        private final Random random;

        RandomDelay(long seed) {
            this.random = new Random(seed);
        }

        @Override
        protected Integer svc(Integer x) {
            StreamFixtures.work(random.nextInt((int) MAX_DELAY_NANOS));
            return x * 10;
        }
    }

    /**
     * After a random delay: drops multiples of 5, emits three items for multiples of 3 (two sendOut and
     * the return value), one sendOut then goOn for multiples of 7, else one returned item.
     */
    private static final class FilterAndExpand extends Node<Integer, Integer> {
        private final Random random;

        FilterAndExpand(long seed) {
            this.random = new Random(seed);
        }

        @Override
        protected Integer svc(Integer x) {
            StreamFixtures.work(random.nextInt((int) MAX_DELAY_NANOS));
            return apply(x, this::sendOut, this::goOn);
        }

        static Integer apply(
                int x, java.util.function.Consumer<Integer> send, java.util.function.Supplier<Integer> goOn) {
            if (x % 5 == 0) {
                return goOn.get();
            }
            if (x % 3 == 0) {
                send.accept(x * 10);
                send.accept(x * 10 + 1);
                return x * 10 + 2;
            }
            if (x % 7 == 0) {
                send.accept(x * 10 + 3);
                return goOn.get();
            }
            return x * 10 + 4;
        }

        static List<Integer> expected(int n) {
            List<Integer> out = new ArrayList<>();
            for (int x = 0; x < n; x++) {
                Integer last = apply(x, out::add, () -> null);
                if (last != null) {
                    out.add(last);
                }
            }
            return out;
        }
    }

    private static java.util.function.Supplier<BuildingBlock> seeded(
            java.util.function.LongFunction<BuildingBlock> make) {
        AtomicInteger next = new AtomicInteger();
        return () -> make.apply(42L + next.getAndIncrement());
    }

    @ParameterizedTest(name = "onDemand={0}, {1}")
    @MethodSource("policiesAndStrategies")
    void shouldEmitInInputOrderWhenWorkersTakeRandomTime(boolean onDemand, WaitStrategy strategy) {
        int n = 400;
        Sink<Integer> sink = new Sink<>();
        Farm farm = policy(Farm.of(4, seeded(RandomDelay::new)), onDemand).ordered();
        new Pipeline(source(0, n), farm, sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        assertThat(sink.items)
                .containsExactlyElementsOf(ints(0, n).stream().map(x -> x * 10).toList());
    }

    @ParameterizedTest(name = "onDemand={0}, {1}")
    @MethodSource("policiesAndStrategies")
    void shouldKeepInputOrderWhenWorkersFilterOrEmitSeveralItems(boolean onDemand, WaitStrategy strategy) {
        int n = 400;
        Sink<Integer> sink = new Sink<>();
        Farm farm = policy(Farm.of(4, seeded(FilterAndExpand::new)), onDemand).ordered();
        new Pipeline(source(0, n), farm, sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        assertThat(sink.items).containsExactlyElementsOf(FilterAndExpand.expected(n));
    }

    @ParameterizedTest(name = "onDemand={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void shouldKeepInputOrderWithASmallBoundOnTasksInFlight(boolean onDemand) {
        int n = 400;
        Sink<Integer> sink = new Sink<>();
        Farm farm = policy(Farm.of(4, seeded(FilterAndExpand::new)), onDemand).ordered(4);
        new Pipeline(source(0, n), farm, sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING));

        assertThat(sink.items).containsExactlyElementsOf(FilterAndExpand.expected(n));
    }

    @Test
    void shouldKeepInputOrderWithOneTaskInFlight() {
        int n = 200;
        Sink<Integer> sink = new Sink<>();
        Farm farm = Farm.of(3, seeded(FilterAndExpand::new)).ordered(1);
        new Pipeline(source(0, n), farm, sink).runAndWaitEnd();

        assertThat(sink.items).containsExactlyElementsOf(FilterAndExpand.expected(n));
    }

    @Test
    void shouldKeepInputOrderWithSmallQueues() {
        int n = 400;
        Sink<Integer> sink = new Sink<>();
        Farm farm = Farm.of(3, seeded(FilterAndExpand::new)).ordered();
        new Pipeline(source(0, n), farm, sink)
                .runAndWaitEnd(RunOptions.defaults()
                        .waitStrategy(WaitStrategy.BLOCKING)
                        .queueCapacity(1));

        assertThat(sink.items).containsExactlyElementsOf(FilterAndExpand.expected(n));
    }

    /** Stage of a pipeline worker: random delay, then {@code x -> [2x, 2x+1]}, dropping multiples of 4. */
    private static final class Split extends Node<Integer, Integer> {
        private final Random random;

        Split(long seed) {
            this.random = new Random(seed);
        }

        @Override
        protected Integer svc(Integer x) {
            StreamFixtures.work(random.nextInt((int) MAX_DELAY_NANOS / 2));
            if (x % 4 == 0) {
                return goOn();
            }
            sendOut(2 * x);
            return 2 * x + 1;
        }
    }

    /** Second stage: random delay, drops multiples of 3, emits {@code y} and {@code -y} otherwise. */
    private static final class Mirror extends Node<Integer, Integer> {
        private final Random random;

        Mirror(long seed) {
            this.random = new Random(seed);
        }

        @Override
        protected Integer svc(Integer y) {
            StreamFixtures.work(random.nextInt((int) MAX_DELAY_NANOS / 2));
            if (y % 3 == 0) {
                return goOn();
            }
            sendOut(y);
            return -y;
        }
    }

    private static List<Integer> splitThenMirror(int n) {
        List<Integer> out = new ArrayList<>();
        for (int x = 0; x < n; x++) {
            if (x % 4 == 0) {
                continue;
            }
            for (int y : new int[] {2 * x, 2 * x + 1}) {
                if (y % 3 != 0) {
                    out.add(y);
                    out.add(-y);
                }
            }
        }
        return out;
    }

    @ParameterizedTest(name = "onDemand={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void shouldKeepInputOrderInAFarmOfTwoStagePipelines(boolean onDemand) {
        int n = 400;
        Sink<Integer> sink = new Sink<>();
        AtomicInteger seeds = new AtomicInteger();
        Farm farm = policy(
                        Farm.of(
                                3,
                                () -> new Pipeline(
                                        new Split(seeds.incrementAndGet()),
                                        new Mirror(1000 + seeds.incrementAndGet()))),
                        onDemand)
                .ordered(8);
        new Pipeline(source(0, n), farm, sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING));

        assertThat(sink.items).containsExactlyElementsOf(splitThenMirror(n));
    }

    @Test
    void shouldKeepInputOrderWithAnEmitterAsSourceAndAUserCollector() {
        int n = 400;
        Sink<Integer> collector = new Sink<>();
        Farm.of(4, seeded(RandomDelay::new))
                .emitter(source(0, n))
                .collector(collector)
                .ordered()
                .runAndWaitEnd();

        assertThat(collector.items)
                .containsExactlyElementsOf(ints(0, n).stream().map(x -> x * 10).toList());
    }

    /** Tags each item with the worker's id, after a random delay. */
    private static final class TaggingDelay extends Node<Integer, int[]> {
        private final Random random;

        TaggingDelay(long seed) {
            this.random = new Random(seed);
        }

        @Override
        protected int[] svc(Integer x) {
            StreamFixtures.work(random.nextInt((int) MAX_DELAY_NANOS));
            return new int[] {id(), x};
        }
    }

    @Test
    void shouldTellAMultiInputCollectorWhichWorkerEachOrderedItemCameFrom() {
        int n = 300;
        CollectByChannel<int[]> collector = new CollectByChannel<>();
        new Pipeline(
                        source(0, n),
                        Farm.of(3, seeded(TaggingDelay::new))
                                .collector(collector)
                                .ordered())
                .runAndWaitEnd();

        assertThat(collector.arrivals.stream().map(a -> a.item()[1]).toList()).containsExactlyElementsOf(ints(0, n));
        for (Arrival<int[]> a : collector.arrivals) {
            assertThat(a.channel()).isEqualTo(a.item()[0]);
        }
    }

    /** Worker {@code quitter} returns eos() at its 5th task; every worker records what it passed on. */
    private static final class MayQuit extends Node<Integer, Integer> {
        private final boolean quitter;
        private final List<Integer> passed;
        private final Random random;
        private int tasks;

        MayQuit(boolean quitter, List<Integer> passed, long seed) {
            this.quitter = quitter;
            this.passed = passed;
            this.random = new Random(seed);
        }

        @Override
        protected Integer svc(Integer x) {
            StreamFixtures.work(random.nextInt((int) MAX_DELAY_NANOS / 4));
            if (quitter && ++tasks == 5) {
                return eos();
            }
            passed.add(x);
            return x;
        }
    }

    @ParameterizedTest(name = "onDemand={0}, {1}")
    @MethodSource("policiesAndStrategies")
    void shouldEndWithoutHangingWhenAWorkerOfAnOrderedFarmEndsEarly(boolean onDemand, WaitStrategy strategy) {
        int n = 300;
        List<Integer> passed = Collections.synchronizedList(new ArrayList<>());
        Sink<Integer> sink = new Sink<>();
        List<BuildingBlock> workers =
                List.of(new MayQuit(false, passed, 1), new MayQuit(true, passed, 2), new MayQuit(false, passed, 3));
        new Pipeline(source(0, n), policy(Farm.of(workers), onDemand).ordered(16), sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(8));

        List<Integer> expected = new ArrayList<>(passed);
        Collections.sort(expected);
        assertThat(sink.items)
                .as("every item a worker passed on, in input order")
                .containsExactlyElementsOf(expected);
        assertThat(sink.items.size()).as("the two other workers keep working").isGreaterThan(n / 2);
    }

    @ParameterizedTest(name = "onDemand={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void shouldEndWithoutHangingWhenALaterStageOfAPipelineWorkerEndsEarly(boolean onDemand) {
        int n = 600;
        List<Integer> passed = Collections.synchronizedList(new ArrayList<>());
        Sink<Integer> sink = new Sink<>();
        List<BuildingBlock> workers = List.of(
                new Pipeline(Node.of((Integer x) -> x), new MayQuit(false, passed, 1)),
                new Pipeline(Node.of((Integer x) -> x), new MayQuit(true, passed, 2)),
                new Pipeline(Node.of((Integer x) -> x), new MayQuit(false, passed, 3)));
        new Pipeline(source(0, n), policy(Farm.of(workers), onDemand).ordered(16), sink)
                .runAndWaitEnd(RunOptions.defaults()
                        .waitStrategy(WaitStrategy.BLOCKING)
                        .queueCapacity(4));

        List<Integer> expected = new ArrayList<>(passed);
        Collections.sort(expected);
        assertThat(sink.items).containsExactlyElementsOf(expected);
        assertThat(sink.items.size()).isGreaterThan(n / 2);
    }

    /** Keeps the first {@code limit} items, then ends. */
    private static final class FirstOnly extends Node<Integer, Integer> {
        private final int limit;
        final List<Integer> items = Collections.synchronizedList(new ArrayList<>());

        FirstOnly(int limit) {
            this.limit = limit;
        }

        @Override
        protected Integer svc(Integer x) {
            items.add(x);
            return items.size() == limit ? eos() : goOn();
        }
    }

    // A healthy run takes well under a second; the short timeout keeps a hang from costing a minute.
    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void shouldStopAnEndlessSourceWhenTheCollectorOfAnOrderedFarmEnds(WaitStrategy strategy) {
        FirstOnly collector = new FirstOnly(200);
        new Pipeline(
                        infiniteSource(),
                        Farm.of(3, seeded(RandomDelay::new))
                                .collector(collector)
                                .ordered(8))
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(4));

        assertThat(collector.items)
                .containsExactlyElementsOf(
                        ints(0, 200).stream().map(x -> x * 10).toList());
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void shouldStopAnEndlessSourceWhenTheStageAfterAnOrderedFarmEnds() {
        FirstOnly sink = new FirstOnly(200);
        new Pipeline(infiniteSource(), Farm.of(3, seeded(RandomDelay::new)).ordered(), sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING));

        assertThat(sink.items)
                .containsExactlyElementsOf(
                        ints(0, 200).stream().map(x -> x * 10).toList());
    }

    /** An emitter sending each input twice: as {@code 2x} and {@code 2x+1}. */
    private static final class Doubler extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) {
            sendOut(2 * x);
            return 2 * x + 1;
        }
    }

    @Test
    void shouldOrderByTheEmittersOutputWhenTheEmitterSendsSeveralTasksPerInput() {
        int n = 300;
        Sink<Integer> sink = new Sink<>();
        Farm farm = Farm.of(4, seeded(RandomDelay::new))
                .emitter(new Doubler())
                .onDemand()
                .ordered();
        new Pipeline(source(0, n), farm, sink).runAndWaitEnd();

        assertThat(sink.items)
                .containsExactlyElementsOf(
                        ints(0, 2 * n).stream().map(x -> x * 10).toList());
    }

    /** Random delay, passes items on; from eosNotify sends one trailer {@code -(id + 1)}. */
    private static final class WithTrailer extends Node<Integer, Integer> {
        private final Random random;

        WithTrailer(long seed) {
            this.random = new Random(seed);
        }

        @Override
        protected Integer svc(Integer x) {
            StreamFixtures.work(random.nextInt((int) MAX_DELAY_NANOS / 4));
            return x;
        }

        @Override
        protected void eosNotify(int channel) {
            sendOut(-(id() + 1));
        }
    }

    @Test
    void shouldDeliverWhatWorkersSendFromEosNotifyAfterAllOrderedItems() {
        int n = 500;
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(0, n), Farm.of(3, seeded(WithTrailer::new)).ordered(), sink).runAndWaitEnd();

        assertThat(sink.items).hasSize(n + 3);
        assertThat(sink.items.subList(0, n)).containsExactlyElementsOf(ints(0, n));
        assertThat(sink.items.subList(n, n + 3)).containsExactlyInAnyOrder(-1, -2, -3);
    }
}
