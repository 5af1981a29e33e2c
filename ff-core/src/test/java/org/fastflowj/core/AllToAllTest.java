package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.core.StreamFixtures.source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;
import org.fastflowj.core.StreamFixtures.Arrival;
import org.fastflowj.core.StreamFixtures.CollectByChannel;
import org.fastflowj.core.StreamFixtures.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** All-to-all: L-Workers to R-Workers by round-robin, on demand, key, broadcast; feedback; nesting. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AllToAllTest {
    /** L-Worker {@code i} emits {@code i * BLOCK + k}: the item tells where it came from. */
    private static final int BLOCK = 1_000_000;

    private static final RunOptions BLOCKING = RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING);

    /** An L-Worker source: emits {@code index * BLOCK + k} for k below {@code count}. */
    private static final class LSource extends Node<Void, Integer> {
        private final int index;
        private final int count;
        private int k;

        LSource(int index, int count) {
            this.index = index;
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            return k < count ? Integer.valueOf(index * BLOCK + k++) : eos();
        }
    }

    private static List<BuildingBlock> lSources(int width, int count) {
        List<BuildingBlock> list = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            list.add(new LSource(i, count));
        }
        return list;
    }

    private static List<Integer> lItems(int width, int count, IntUnaryOperator f) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            for (int k = 0; k < count; k++) {
                all.add(f.applyAsInt(i * BLOCK + k));
            }
        }
        return all;
    }

    /** An R-Worker recording (channel, item); passes {@code {id(), item}} on. */
    private static final class RRecorder extends MultiInputNode<Integer, int[]> {
        final List<Arrival<Integer>> arrivals = Collections.synchronizedList(new ArrayList<>());
        volatile int channels = -1;

        @Override
        protected int[] svc(Integer x) {
            channels = inputChannels();
            arrivals.add(new Arrival<>(inputChannel(), x));
            return new int[] {id(), x};
        }

        List<Integer> fromChannel(int channel) {
            synchronized (arrivals) {
                return arrivals.stream()
                        .filter(a -> a.channel() == channel)
                        .map(Arrival::item)
                        .toList();
            }
        }

        List<Integer> items() {
            synchronized (arrivals) {
                return arrivals.stream().map(Arrival::item).toList();
            }
        }
    }

    private static List<RRecorder> rRecorders(int width) {
        List<RRecorder> list = new ArrayList<>();
        for (int j = 0; j < width; j++) {
            list.add(new RRecorder());
        }
        return list;
    }

    private static void assertChannelsMatchOrigin(List<RRecorder> rs, int lWidth) {
        for (RRecorder r : rs) {
            assertThat(r.channels).isEqualTo(lWidth);
            for (Arrival<Integer> a : r.arrivals) {
                assertThat(a.channel())
                        .as("R input channel of item %d", a.item())
                        .isEqualTo(a.item() / BLOCK);
            }
        }
    }

    private static void assertSinkChannelsMatchR(CollectByChannel<int[]> sink, int rWidth) {
        assertThat(sink.channels).isEqualTo(rWidth);
        for (Arrival<int[]> a : sink.arrivals) {
            assertThat(a.channel()).isEqualTo(a.item()[0]);
        }
    }

    private static List<Integer> sinkItems(CollectByChannel<int[]> sink) {
        synchronized (sink.arrivals) {
            return sink.arrivals.stream().map(a -> a.item()[1]).toList();
        }
    }

    // ------------------------------------------------------------------ distribution

    @Test
    void shouldSendTheKthItemOfEachLWorkerToRWorkerKModuloWidthByRoundRobin() {
        int count = 600;
        List<RRecorder> rs = rRecorders(3);
        CollectByChannel<int[]> sink = new CollectByChannel<>();
        new Pipeline(new AllToAll().firstSet(lSources(2, count)).secondSet(rs), sink)
                .runAndWaitEnd(BLOCKING.unboundedQueues(true));

        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 2; i++) {
                int l = i;
                int r = j;
                assertThat(rs.get(j).fromChannel(i))
                        .as("R%d from L%d", j, i)
                        .containsExactlyElementsOf(IntStream.range(0, count)
                                .filter(k -> k % 3 == r)
                                .map(k -> l * BLOCK + k)
                                .boxed()
                                .toList());
            }
        }
        assertChannelsMatchOrigin(rs, 2);
        assertSinkChannelsMatchR(sink, 3);
        assertThat(sinkItems(sink)).containsExactlyInAnyOrderElementsOf(lItems(2, count, x -> x));
    }

    @ParameterizedTest(name = "{0} L x {1} R, {2}")
    @CsvSource({
        "1, 3, BACKOFF",
        "3, 1, BACKOFF",
        "2, 5, BACKOFF",
        "4, 4, BACKOFF",
        "1, 3, BLOCKING",
        "3, 1, BLOCKING",
        "2, 5, BLOCKING",
        "4, 4, BLOCKING"
    })
    void shouldDeliverEveryLItemToExactlyOneRWorkerForAnyWidths(int lWidth, int rWidth, WaitStrategy strategy) {
        int count = 1500;
        List<RRecorder> rs = rRecorders(rWidth);
        CollectByChannel<int[]> sink = new CollectByChannel<>();
        new Pipeline(new AllToAll().firstSet(lSources(lWidth, count)).secondSet(rs), sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(4));

        List<Integer> expected = lItems(lWidth, count, x -> x);
        List<Integer> atR = new ArrayList<>();
        for (RRecorder r : rs) {
            atR.addAll(r.items());
        }
        assertThat(atR).containsExactlyInAnyOrderElementsOf(expected);
        assertChannelsMatchOrigin(rs, lWidth);
        assertSinkChannelsMatchR(sink, rWidth);
        assertThat(sinkItems(sink)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(sink.endedChannels).containsExactlyInAnyOrderElementsOf(StreamFixtures.ints(0, rWidth));
    }

    @Test
    void shouldFeedTheLWorkersFromAPreviousStage() {
        int n = 3000;
        List<RRecorder> rs = rRecorders(2);
        AllToAll a2a = new AllToAll()
                .firstSet(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x + 1))
                .secondSet(rs);
        CollectByChannel<int[]> sink = new CollectByChannel<>();
        new Pipeline(source(0, n), a2a, sink).runAndWaitEnd();

        assertThat(sinkItems(sink)).containsExactlyInAnyOrderElementsOf(StreamFixtures.ints(1, n + 1));
        for (RRecorder r : rs) {
            assertThat(r.channels).isEqualTo(3);
        }
    }

    /** An R-Worker that counts its items, optionally sleeping per item. */
    private static final class SlowR extends Node<Integer, Integer> {
        private final long sleepMs;
        final AtomicInteger items = new AtomicInteger();

        SlowR(long sleepMs) {
            this.sleepMs = sleepMs;
        }

        @Override
        protected Integer svc(Integer x) throws InterruptedException {
            items.incrementAndGet();
            if (sleepMs > 0) {
                Thread.sleep(sleepMs); // a slow worker is the behaviour under test
            }
            return x;
        }
    }

    @Test
    void shouldGiveASlowRWorkerFewItemsWhenOnDemand() {
        int count = 60;
        SlowR slow = new SlowR(20);
        SlowR fast1 = new SlowR(0);
        SlowR fast2 = new SlowR(0);
        Sink<Integer> sink = new Sink<>();
        new Pipeline(
                        new AllToAll()
                                .firstSet(lSources(2, count))
                                .secondSet(fast1, slow, fast2)
                                .onDemand(),
                        sink)
                .runAndWaitEnd(BLOCKING);

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(lItems(2, count, x -> x));
        // each L holds at most one item in its single slot towards the slow R; round-robin would give it 40
        assertThat(slow.items.get()).isLessThan(2 * count / 3 / 2);
    }

    @Test
    void shouldDeliverEveryItemOnceWhenOnDemandWithSeveralSlots() {
        int count = 2000;
        List<RRecorder> rs = rRecorders(3);
        CollectByChannel<int[]> sink = new CollectByChannel<>();
        new Pipeline(new AllToAll().firstSet(lSources(2, count)).secondSet(rs).onDemand(4), sink).runAndWaitEnd();

        assertThat(sinkItems(sink)).containsExactlyInAnyOrderElementsOf(lItems(2, count, x -> x));
        assertChannelsMatchOrigin(rs, 2);
    }

    /** An L-Worker source sending each key to R-Worker {@code key % R}. */
    private static final class KeyedSource extends MultiOutputNode<Void, Integer> {
        private final int index;
        private final int count;

        KeyedSource(int index, int count) {
            this.index = index;
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            for (int k = 0; k < count; k++) {
                int key = index * BLOCK + k;
                sendOutTo(key, key % outputChannels());
            }
            return eos();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldRouteEachKeyToItsRWorkerWhenLWorkersChooseTheChannel(WaitStrategy strategy) {
        int count = 2000;
        int rWidth = 3;
        List<RRecorder> rs = rRecorders(rWidth);
        AllToAll a2a = new AllToAll()
                .firstSet(new KeyedSource(0, count), new KeyedSource(1, count))
                .secondSet(rs);
        new Pipeline(a2a, new Sink<int[]>())
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(2));

        for (int j = 0; j < rWidth; j++) {
            int r = j;
            assertThat(rs.get(j).items())
                    .as("R%d", j)
                    .containsExactlyInAnyOrderElementsOf(lItems(2, count, x -> x).stream()
                            .filter(x -> x % rWidth == r)
                            .toList());
        }
        assertChannelsMatchOrigin(rs, 2);
    }

    /** An L-Worker source broadcasting each item to every R-Worker. */
    private static final class Broadcaster extends MultiOutputNode<Void, Integer> {
        private final int index;
        private final int count;
        private int k;

        Broadcaster(int index, int count) {
            this.index = index;
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            if (k == count) {
                return eos();
            }
            broadcast(index * BLOCK + k++);
            return goOn();
        }
    }

    @Test
    void shouldGiveEveryRWorkerEveryItemWhenLWorkersBroadcast() {
        int count = 1000;
        List<RRecorder> rs = rRecorders(3);
        CollectByChannel<int[]> sink = new CollectByChannel<>();
        AllToAll a2a = new AllToAll()
                .firstSet(new Broadcaster(0, count), new Broadcaster(1, count))
                .secondSet(rs);
        new Pipeline(a2a, sink).runAndWaitEnd(BLOCKING.queueCapacity(8));

        for (RRecorder r : rs) {
            assertThat(r.items()).containsExactlyInAnyOrderElementsOf(lItems(2, count, x -> x));
            assertThat(r.fromChannel(0)).isSorted();
            assertThat(r.fromChannel(1)).isSorted();
        }
        assertThat(sink.arrivals).hasSize(3 * 2 * count);
    }

    // ------------------------------------------------------------------ members that are not plain nodes

    @Test
    void shouldRunCombinerLWorkersAndPipelineRWorkers() {
        int count = 1500;
        List<BuildingBlock> ls = List.of(
                Combiner.of(new LSource(0, count), Node.of((Integer x) -> x * 2)),
                Combiner.of(new LSource(1, count), Node.of((Integer x) -> x * 2)));
        List<BuildingBlock> rs = new ArrayList<>();
        for (int j = 0; j < 3; j++) {
            rs.add(new Pipeline(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x * 3)));
        }
        Sink<Integer> sink = new Sink<>();
        new Pipeline(new AllToAll().firstSet(ls).secondSet(rs), sink).runAndWaitEnd(BLOCKING.queueCapacity(4));

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(lItems(2, count, x -> (x * 2 + 1) * 3));
    }

    @Test
    void shouldRunPipelineLWorkersAndCombinerRWorkers() {
        int count = 1500;
        List<BuildingBlock> ls = List.of(
                new Pipeline(new LSource(0, count), Node.of((Integer x) -> x * 2)),
                new Pipeline(new LSource(1, count), Node.of((Integer x) -> x * 2)),
                new Pipeline(new LSource(2, count), Node.of((Integer x) -> x * 2)));
        List<BuildingBlock> rs = List.of(
                Combiner.of(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x * 3)),
                Combiner.of(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x * 3)));
        Sink<Integer> sink = new Sink<>();
        new Pipeline(new AllToAll().firstSet(ls).secondSet(rs), sink).runAndWaitEnd();

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(lItems(3, count, x -> (x * 2 + 1) * 3));
    }

    @Test
    void shouldRunPipelineMembersOnBothSidesAfterAnInputStage() {
        int n = 3000;
        List<BuildingBlock> ls = List.of(
                new Pipeline(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x * 2)),
                new Pipeline(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x * 2)));
        List<BuildingBlock> rs = List.of(
                new Pipeline(Node.of((Integer x) -> x - 1), Node.of((Integer x) -> x * 5)),
                new Pipeline(Node.of((Integer x) -> x - 1), Node.of((Integer x) -> x * 5)),
                new Pipeline(Node.of((Integer x) -> x - 1), Node.of((Integer x) -> x * 5)));
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(0, n), new AllToAll().firstSet(ls).secondSet(rs), sink).runAndWaitEnd(BLOCKING);

        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, n)
                        .map(x -> ((x + 1) * 2 - 1) * 5)
                        .boxed()
                        .toList());
    }

    // ------------------------------------------------------------------ R -> L feedback

    /** Which L-Worker an R-Worker sends {@code item} back to. */
    private static int target(int item, int lWidth) {
        return (item / BLOCK + item % BLOCK) % lWidth;
    }

    /**
     * Heads the loop: svc(null) sends its items round-robin to the R-Workers; then receives feedback and
     * ends once every item addressed to it came back.
     */
    private static final class LoopL extends MultiInputNode<Integer, Integer> {
        private final int count;
        private final int expectedBack;
        final List<Integer> received = Collections.synchronizedList(new ArrayList<>());
        final List<String> errors = Collections.synchronizedList(new ArrayList<>());
        volatile int startCalls;

        LoopL(int count, int expectedBack) {
            this.count = count;
            this.expectedBack = expectedBack;
        }

        @Override
        protected Integer svc(Integer item) {
            if (item == null) {
                startCalls++;
                for (int k = 0; k < count; k++) {
                    sendOut(id() * BLOCK + k);
                }
                return expectedBack == 0 ? eos() : goOn();
            }
            if (!fromFeedback()) {
                errors.add(item + " not from feedback");
            }
            if (feedbackChannels() != 3) {
                errors.add("feedback channels " + feedbackChannels());
            }
            received.add(item);
            return received.size() == expectedBack ? eos() : goOn();
        }
    }

    /** Sends each item back to the L-Worker {@link #target} picks. */
    private static final class Bouncer extends MultiOutputNode<Integer, Integer> {
        private final int lWidth;
        volatile int feedbackChannelsSeen = -1;

        Bouncer(int lWidth) {
            this.lWidth = lWidth;
        }

        @Override
        protected Integer svc(Integer item) {
            feedbackChannelsSeen = feedbackChannels();
            sendFeedbackTo(item, target(item, lWidth));
            return goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldRouteFeedbackToTheChosenLWorkerAndEndWhenTheLWorkersDecide(WaitStrategy strategy) {
        int lWidth = 2;
        int count = 3000;
        List<Integer> all = lItems(lWidth, count, x -> x);
        List<LoopL> ls = new ArrayList<>();
        for (int i = 0; i < lWidth; i++) {
            int l = i;
            ls.add(new LoopL(count, (int)
                    all.stream().filter(x -> target(x, lWidth) == l).count()));
        }
        List<Bouncer> rs = List.of(new Bouncer(lWidth), new Bouncer(lWidth), new Bouncer(lWidth));
        new AllToAll()
                .firstSet(ls)
                .secondSet(rs)
                .wrapAround()
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(2));

        for (int i = 0; i < lWidth; i++) {
            int l = i;
            LoopL worker = ls.get(i);
            assertThat(worker.startCalls).isEqualTo(1);
            assertThat(worker.errors).isEmpty();
            assertThat(worker.received)
                    .as("L%d gets exactly the items addressed to it", i)
                    .containsExactlyInAnyOrderElementsOf(
                            all.stream().filter(x -> target(x, lWidth) == l).toList());
        }
        for (Bouncer r : rs) {
            assertThat(r.feedbackChannelsSeen).isEqualTo(lWidth);
        }
    }

    // ------------------------------------------------------------------ compositions

    @Test
    void shouldDeliverEachItemOnceFromAnAllToAllIntoAFarm() {
        int count = 2000;
        AllToAll a2a = new AllToAll()
                .firstSet(lSources(2, count))
                .secondSet(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x + 1));
        Farm farm = Farm.of(2, () -> Node.of((Integer x) -> x * 2));
        Sink<Integer> sink = new Sink<>();
        new Pipeline(a2a, farm, sink).runAndWaitEnd(BLOCKING.queueCapacity(4));

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(lItems(2, count, x -> (x + 1) * 2));
    }

    /** An L-Worker recording how many input channels it has; applies {@code x * 2}. */
    private static final class CountingL extends MultiInputNode<Integer, Integer> {
        volatile int channels = -1;

        @Override
        protected Integer svc(Integer x) {
            channels = inputChannels();
            return x * 2;
        }
    }

    @ParameterizedTest(name = "{0} farm workers into {1} L-Workers")
    @CsvSource({"3, 3", "3, 2", "2, 4"})
    void shouldDeliverEachItemOnceFromAFarmIntoAnAllToAll(int workers, int lWidth) {
        int n = 3000;
        List<CountingL> ls = new ArrayList<>();
        for (int i = 0; i < lWidth; i++) {
            ls.add(new CountingL());
        }
        AllToAll a2a =
                new AllToAll().firstSet(ls).secondSet(Node.of((Integer x) -> x + 5), Node.of((Integer x) -> x + 5));
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(0, n), Farm.of(workers, () -> Node.of((Integer x) -> x + 1)), a2a, sink)
                .runAndWaitEnd(BLOCKING.queueCapacity(4));

        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, n).map(x -> (x + 1) * 2 + 5).boxed().toList());
        int expectedChannels = workers == lWidth ? 1 : workers; // equal widths join one to one
        for (CountingL l : ls) {
            if (l.channels >= 0) {
                assertThat(l.channels).isEqualTo(expectedChannels);
            }
        }
    }

    @ParameterizedTest(name = "{0} R-Workers into {1} L-Workers")
    @CsvSource({"2, 2", "3, 2", "2, 3"})
    void shouldDeliverEachItemOnceFromAnAllToAllIntoAnotherAllToAll(int rWidth, int lWidth) {
        int count = 1500;
        List<BuildingBlock> r1 = new ArrayList<>();
        for (int j = 0; j < rWidth; j++) {
            r1.add(Node.of((Integer x) -> x + 1));
        }
        List<CountingL> l2 = new ArrayList<>();
        for (int i = 0; i < lWidth; i++) {
            l2.add(new CountingL());
        }
        AllToAll first = new AllToAll().firstSet(lSources(2, count)).secondSet(r1);
        AllToAll second = new AllToAll()
                .firstSet(l2)
                .secondSet(Node.of((Integer x) -> x - 3), Node.of((Integer x) -> x - 3), Node.of((Integer x) -> x - 3));
        Sink<Integer> sink = new Sink<>();
        new Pipeline(first, second, sink).runAndWaitEnd(BLOCKING.queueCapacity(4));

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(lItems(2, count, x -> (x + 1) * 2 - 3));
        int expectedChannels = rWidth == lWidth ? 1 : rWidth;
        for (CountingL l : l2) {
            assertThat(l.channels).isEqualTo(expectedChannels);
        }
    }

    @Test
    void shouldDeliverEachItemOnceThroughAPipelineOfFarmAllToAllAndFarm() {
        int n = 4000;
        Farm farm1 = Farm.of(2, () -> new Pipeline(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x * 2)));
        AllToAll a2a = new AllToAll()
                .firstSet(
                        new Pipeline(Node.of((Integer x) -> x + 3)),
                        Combiner.of(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x + 2)))
                .secondSet(
                        Node.of((Integer x) -> x * 10), Node.of((Integer x) -> x * 10), Node.of((Integer x) -> x * 10));
        Farm farm2 = Farm.of(3, () -> Node.of((Integer x) -> x - 7)).collector(Node.of((Integer x) -> -x));
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(0, n), farm1, a2a, farm2, sink)
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(8));

        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, n)
                        .map(x -> -(((x + 1) * 2 + 3) * 10 - 7))
                        .boxed()
                        .toList());
    }

    @Test
    void shouldDeliverEachItemOnceThroughAFarmWhoseWorkersAreAllToAlls() {
        int n = 3000;
        Farm farm = Farm.of(2, () -> new AllToAll()
                .firstSet(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x + 1))
                .secondSet(
                        Node.of((Integer x) -> x * 2), Node.of((Integer x) -> x * 2), Node.of((Integer x) -> x * 2)));
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(0, n), farm.collector(Node.of((Integer x) -> x - 1)), sink).runAndWaitEnd(BLOCKING);

        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, n).map(x -> (x + 1) * 2 - 1).boxed().toList());
    }

    @Test
    void shouldDeliverEachItemOnceThroughAPipelineWorkerContainingAnAllToAll() {
        int n = 3000;
        Farm farm = Farm.of(
                2,
                () -> new Pipeline(
                        Node.of((Integer x) -> x + 1),
                        new AllToAll()
                                .firstSet(Node.of((Integer x) -> x * 2), Node.of((Integer x) -> x * 2))
                                .secondSet(Node.of((Integer x) -> x + 3), Node.of((Integer x) -> x + 3)),
                        Node.of((Integer x) -> -x)));
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(0, n), farm, sink).runAndWaitEnd();

        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, n)
                        .map(x -> -((x + 1) * 2 + 3))
                        .boxed()
                        .toList());
    }

    /**
     * An L-Worker with an input stream and feedback: forwards input items to the R-Workers, counts the
     * answers the R-Workers send back to it, and ends the loop once its input ended and all its items
     * are answered.
     */
    private static final class AskingL extends MultiInputNode<Integer, Integer> {
        final List<Integer> answers = Collections.synchronizedList(new ArrayList<>());
        final List<Integer> asked = Collections.synchronizedList(new ArrayList<>());
        private boolean inputEnded;
        private int outstanding;

        @Override
        protected Integer svc(Integer x) {
            if (!fromFeedback()) {
                asked.add(x);
                outstanding++;
                return x * BLOCK + id(); // the R-Worker answers to L (item % BLOCK)
            }
            answers.add(x);
            return --outstanding == 0 && inputEnded ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            inputEnded = true;
            if (outstanding == 0) {
                sendOut(eos());
            }
        }
    }

    /** Answers {@code x * BLOCK + l} with {@code -x}, sent back to L-Worker {@code l}. */
    private static final class Answerer extends MultiOutputNode<Integer, Integer> {
        @Override
        protected Integer svc(Integer q) throws InterruptedException {
            if (q / BLOCK % 7 == 0) {
                Thread.sleep(0, 100_000); // some answers take a little longer
            }
            sendFeedbackTo(-(q / BLOCK), q % BLOCK);
            return goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldLetLWorkersWithAnInputStreamEndTheLoopAfterTheirInputEnded(WaitStrategy strategy) {
        int n = 2000;
        List<AskingL> ls = List.of(new AskingL(), new AskingL());
        AllToAll a2a = new AllToAll()
                .firstSet(ls)
                .secondSet(new Answerer(), new Answerer(), new Answerer())
                .wrapAround();
        new Pipeline(source(0, n), a2a)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(4));

        List<Integer> allAsked = new ArrayList<>();
        for (AskingL l : ls) {
            assertThat(l.answers)
                    .as("L%d gets the answers to its own questions", ls.indexOf(l))
                    .containsExactlyInAnyOrderElementsOf(
                            l.asked.stream().map(x -> -x).toList());
            allAsked.addAll(l.asked);
        }
        assertThat(allAsked).containsExactlyInAnyOrderElementsOf(StreamFixtures.ints(0, n));
    }

    /** An R-Worker passing items on and recording them; ends itself at its {@code quitAt}-th item. */
    private static final class QuittingR extends Node<Integer, Integer> {
        private final int quitAt;
        private final List<Integer> passed;
        private int items;

        QuittingR(int quitAt, List<Integer> passed) {
            this.quitAt = quitAt;
            this.passed = passed;
        }

        @Override
        protected Integer svc(Integer x) {
            if (++items == quitAt) {
                return eos();
            }
            passed.add(x);
            return x;
        }
    }

    @ParameterizedTest(name = "onDemand={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void shouldKeepDeliveringToTheOtherRWorkersWhenOneEndsEarly(boolean onDemand) {
        int count = 2000;
        List<Integer> passed = Collections.synchronizedList(new ArrayList<>());
        AllToAll a2a = new AllToAll()
                .firstSet(lSources(2, count))
                .secondSet(new QuittingR(0, passed), new QuittingR(5, passed), new QuittingR(0, passed));
        Sink<Integer> sink = new Sink<>();
        new Pipeline(onDemand ? a2a.onDemand() : a2a, sink)
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(4));

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(passed);
        // lost at most: the 5th item and what sat in the two queues into the quitting R-Worker
        assertThat(sink.items.size()).isGreaterThanOrEqualTo(2 * count - 1 - 2 * 4);
    }

    /** An L-Worker source that never ends by itself. */
    private static final class EndlessL extends Node<Void, Integer> {
        private final int index;
        private int k;

        EndlessL(int index) {
            this.index = index;
        }

        @Override
        protected Integer svc(Void none) {
            return index * BLOCK + k++;
        }
    }

    @ParameterizedTest(name = "onDemand={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void shouldStopEndlessLWorkersWhenTheStageAfterTheAllToAllEnds(boolean onDemand) {
        List<Integer> kept = Collections.synchronizedList(new ArrayList<>());
        Node<Integer, Void> firstHundred = new Node<>() {
            @Override
            protected Void svc(Integer x) {
                kept.add(x);
                return kept.size() == 100 ? eos() : goOn();
            }
        };
        AllToAll a2a = new AllToAll()
                .firstSet(new EndlessL(0), new EndlessL(1))
                .secondSet(Node.of((Integer x) -> x), Node.of((Integer x) -> x), Node.of((Integer x) -> x));
        new Pipeline(onDemand ? a2a.onDemand() : a2a, firstHundred).runAndWaitEnd(BLOCKING.queueCapacity(4));

        assertThat(kept).hasSize(100).doesNotHaveDuplicates();
    }

    /** Answers {@code x * BLOCK + l} back to L-Worker {@code l} and also sends {@code -x} to the next stage. */
    private static final class AnswerAndReport extends MultiOutputNode<Integer, Integer> {
        @Override
        protected Integer svc(Integer q) {
            sendFeedbackTo(-(q / BLOCK), q % BLOCK);
            sendOutTo(-(q / BLOCK), 0);
            return goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldFeedTheNextStageFromMultiOutputRWorkersOfAWrappedAllToAll(WaitStrategy strategy) {
        int n = 2000;
        List<AskingL> ls = List.of(new AskingL(), new AskingL());
        AllToAll a2a = new AllToAll()
                .firstSet(ls)
                .secondSet(new AnswerAndReport(), new AnswerAndReport(), new AnswerAndReport())
                .wrapAround();
        CollectByChannel<Integer> sink = new CollectByChannel<>();
        new Pipeline(source(0, n), a2a, sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(4));

        assertThat(sink.items())
                .containsExactlyInAnyOrderElementsOf(
                        StreamFixtures.ints(0, n).stream().map(x -> -x).toList());
        assertThat(sink.channels).isEqualTo(3);
        for (AskingL l : ls) {
            assertThat(l.answers)
                    .containsExactlyInAnyOrderElementsOf(
                            l.asked.stream().map(x -> -x).toList());
        }
    }
}
