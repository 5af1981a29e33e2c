package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.core.StreamFixtures.infiniteSource;
import static org.fastflowj.core.StreamFixtures.ints;
import static org.fastflowj.core.StreamFixtures.source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.fastflowj.core.StreamFixtures.Arrival;
import org.fastflowj.core.StreamFixtures.CollectByChannel;
import org.fastflowj.core.StreamFixtures.Recorder;
import org.fastflowj.core.StreamFixtures.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Farm: scheduling policies, emitters, collectors, source workers and nesting. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FarmTest {
    private static final RunOptions BLOCKING = RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING);

    private static List<Recorder<Integer>> recorders(int n) {
        List<Recorder<Integer>> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(new Recorder<>());
        }
        return list;
    }

    private static List<Integer> allSeen(List<Recorder<Integer>> workers) {
        List<Integer> all = new ArrayList<>();
        for (Recorder<Integer> w : workers) {
            all.addAll(w.seen);
        }
        return all;
    }

    // ------------------------------------------------------------------ default emitter, round-robin

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldGiveEveryItemToExactlyOneWorkerWithTheDefaultEmitter(WaitStrategy strategy) {
        int n = 4000;
        List<Recorder<Integer>> workers = recorders(4);
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(0, n), Farm.of(workers), sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(8));

        assertThat(allSeen(workers)).containsExactlyInAnyOrderElementsOf(ints(0, n));
        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(ints(0, n));
        for (Recorder<Integer> w : workers) {
            assertThat(w.seen)
                    .as("a worker keeps the order of the items it got")
                    .isSorted();
        }
    }

    @Test
    void shouldSpreadItemsRoundRobinExactlyWhenQueuesCannotFill() {
        int workersCount = 4;
        int perWorker = 250;
        List<Recorder<Integer>> workers = recorders(workersCount);
        new Pipeline(source(0, workersCount * perWorker), Farm.of(workers), new Sink<Integer>())
                .runAndWaitEnd(BLOCKING.unboundedQueues(true));

        for (int w = 0; w < workersCount; w++) {
            int worker = w;
            List<Integer> expected = IntStream.range(0, perWorker)
                    .map(k -> k * workersCount + worker)
                    .boxed()
                    .toList();
            assertThat(workers.get(w).seen)
                    .as("worker %d gets items i with i %% n == %d", w, w)
                    .containsExactlyElementsOf(expected);
        }
    }

    @Test
    void shouldSpreadItemsRoundRobinExactlyWhenCapacityHoldsAllItems() {
        int workersCount = 3;
        int perWorker = 100;
        List<Recorder<Integer>> workers = recorders(workersCount);
        new Pipeline(source(0, workersCount * perWorker), Farm.of(workers).roundRobin(), new Sink<Integer>())
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(workersCount * perWorker));

        for (Recorder<Integer> w : workers) {
            assertThat(w.seen).hasSize(perWorker);
        }
    }

    // ------------------------------------------------------------------ on-demand

    /** A worker that takes {@code delayNanos} per task and counts its tasks. */
    private static final class Timed extends Node<Integer, Integer> {
        private final long delayNanos;
        final AtomicInteger tasks = new AtomicInteger();

        Timed(long delayNanos) {
            this.delayNanos = delayNanos;
        }

        @Override
        protected Integer svc(Integer item) throws InterruptedException {
            tasks.incrementAndGet();
            if (delayNanos > 0) {
                Thread.sleep(delayNanos / 1_000_000); // a slow worker is the behaviour under test
            }
            return item;
        }
    }

    @Test
    void shouldGiveASlowWorkerOnlyTheTasksItCanTakeWhenOnDemand() {
        int n = 120;
        Timed slow = new Timed(20_000_000);
        Timed fast1 = new Timed(0);
        Timed fast2 = new Timed(0);
        Sink<Integer> sink = new Sink<>();
        long start = System.nanoTime();
        new Pipeline(source(0, n), Farm.of(fast1, slow, fast2).onDemand(), sink).runAndWaitEnd(BLOCKING);
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(ints(0, n));
        assertThat(slow.tasks.get() + fast1.tasks.get() + fast2.tasks.get()).isEqualTo(n);
        // one task in svc plus one in its single slot at any time
        assertThat(slow.tasks.get()).isLessThanOrEqualTo((int) (elapsedMs / 20) + 2);
        assertThat(slow.tasks.get())
                .as("round-robin would give it n/3 = %d", n / 3)
                .isLessThan(n / 3 / 2);
    }

    @Test
    void shouldGiveASlowWorkerItsRoundRobinShareWhenNotOnDemand() {
        int n = 60;
        Timed slow = new Timed(20_000_000);
        Timed fast1 = new Timed(0);
        Timed fast2 = new Timed(0);
        new Pipeline(source(0, n), Farm.of(fast1, slow, fast2), new Sink<Integer>())
                .runAndWaitEnd(BLOCKING.unboundedQueues(true));

        assertThat(slow.tasks.get()).isEqualTo(n / 3);
    }

    /**
     * Worker 0 holds its first task until the other workers have done every task it need not hold
     * (all but {@code 1 + slots}), or 10 s have passed; the others count what they did. Whatever worker
     * 0 does after its first task was queued on it while it was stuck.
     */
    private static final class StuckFirstWorker extends Node<Integer, Integer> {
        private final AtomicInteger doneByOthers;
        private final int releaseAt;
        final AtomicInteger tasks = new AtomicInteger();

        StuckFirstWorker(AtomicInteger doneByOthers, int releaseAt) {
            this.doneByOthers = doneByOthers;
            this.releaseAt = releaseAt;
        }

        @Override
        protected Integer svc(Integer item) throws InterruptedException {
            if (tasks.getAndIncrement() == 0) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (doneByOthers.get() < releaseAt && System.nanoTime() < deadline) {
                    Thread.sleep(1); // polling a condition with a deadline
                }
            }
            return item;
        }
    }

    private static final class CountingWorker extends Node<Integer, Integer> {
        private final AtomicInteger done;

        CountingWorker(AtomicInteger done) {
            this.done = done;
        }

        @Override
        protected Integer svc(Integer item) {
            done.incrementAndGet();
            return item;
        }
    }

    /** 240 tasks, 3 workers, on-demand with the given slots (0: round-robin); worker 0 gets stuck. */
    private static int tasksQueuedOnAStuckWorker(int slots) {
        int n = 240;
        AtomicInteger doneByOthers = new AtomicInteger();
        // round-robin gives the others two thirds whatever happens: release worker 0 once they are done
        int releaseAt = slots > 0 ? n - 1 - slots : n - n / 3;
        StuckFirstWorker stuck = new StuckFirstWorker(doneByOthers, releaseAt);
        Farm farm = Farm.of(stuck, new CountingWorker(doneByOthers), new CountingWorker(doneByOthers));
        if (slots > 0) {
            farm.onDemand(slots);
        }
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(0, n), farm, sink).runAndWaitEnd(BLOCKING);
        assertThat(stuck.tasks.get() + doneByOthers.get()).isEqualTo(n);
        return stuck.tasks.get() - 1;
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 3})
    void shouldNeverQueueMoreThanSlotsTasksOnAWorkerWhenOnDemand(int slots) {
        assertThat(tasksQueuedOnAStuckWorker(slots))
                .as("tasks queued on the stuck worker")
                .isLessThanOrEqualTo(slots);
    }

    @Test
    void shouldQueueManyTasksOnAWorkerWhenRoundRobin() {
        // sanity check of the measure used above: round-robin queues the stuck worker's third on it
        assertThat(tasksQueuedOnAStuckWorker(0)).isEqualTo(240 / 3 - 1);
    }

    // ------------------------------------------------------------------ user emitters and collectors

    /** An emitter choosing the worker from the item: key % workers. */
    private static final class KeyRouter extends MultiOutputNode<Integer, Integer> {
        @Override
        protected Integer svc(Integer key) {
            sendOutTo(key, key % outputChannels());
            return goOn();
        }
    }

    @Test
    void shouldRouteEachKeyToItsWorkerWithAMultiOutputEmitter() {
        int n = 3000;
        int width = 3;
        List<Recorder<Integer>> workers = recorders(width);
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(0, n), Farm.of(workers).emitter(new KeyRouter()), sink)
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(4));

        for (int w = 0; w < width; w++) {
            int worker = w;
            assertThat(workers.get(w).seen)
                    .as("worker %d", w)
                    .containsExactlyElementsOf(IntStream.range(0, n)
                            .filter(k -> k % width == worker)
                            .boxed()
                            .toList());
        }
        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(ints(0, n));
    }

    /** A worker tagging each item with its own id. */
    private static final class Tagger extends Node<Integer, int[]> {
        @Override
        protected int[] svc(Integer item) {
            return new int[] {id(), item};
        }
    }

    @Test
    void shouldNumberTheNextStagesChannelsByWorkerIdWhenThereIsNoCollector() {
        int n = 2000;
        CollectByChannel<int[]> sink = new CollectByChannel<>();
        new Pipeline(source(0, n), Farm.of(4, Tagger::new), sink).runAndWaitEnd();

        assertThat(sink.channels).isEqualTo(4);
        assertThat(sink.arrivals).hasSize(n);
        for (Arrival<int[]> a : sink.arrivals) {
            assertThat(a.channel()).as("channel of item %d", a.item()[1]).isEqualTo(a.item()[0]);
        }
        assertThat(sink.arrivals.stream().map(a -> a.item()[1]).toList())
                .containsExactlyInAnyOrderElementsOf(ints(0, n));
        assertThat(sink.endedChannels).containsExactlyInAnyOrder(0, 1, 2, 3);
    }

    @Test
    void shouldPassEveryWorkerOutputThroughTheCollector() {
        int n = 2000;
        Node<Integer, Integer> collector = Node.of(x -> -x);
        Sink<Integer> sink = new Sink<>();
        new Pipeline(
                        source(0, n),
                        Farm.of(3, () -> Node.of((Integer x) -> x * 2)).collector(collector),
                        sink)
                .runAndWaitEnd();

        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, n).map(x -> -2 * x).boxed().toList());
        assertThat(sink.eosChannels).hasSize(1);
    }

    @Test
    void shouldNumberAMultiInputCollectorsChannelsByWorkerId() {
        int n = 2000;
        CollectByChannel<int[]> collector = new CollectByChannel<>();
        new Pipeline(source(0, n), Farm.of(3, Tagger::new).collector(collector)).runAndWaitEnd(BLOCKING);

        assertThat(collector.channels).isEqualTo(3);
        for (Arrival<int[]> a : collector.arrivals) {
            assertThat(a.channel()).isEqualTo(a.item()[0]);
        }
        assertThat(collector.arrivals.stream().map(a -> a.item()[1]).toList())
                .containsExactlyInAnyOrderElementsOf(ints(0, n));
    }

    @Test
    void shouldRunAFarmAsFirstStageWithTheEmitterAsSource() {
        int n = 1500;
        Sink<Integer> collector = new Sink<>();
        Farm.of(3, () -> Node.of((Integer x) -> x + 1))
                .emitter(source(0, n))
                .collector(collector)
                .runAndWaitEnd();

        assertThat(collector.items).containsExactlyInAnyOrderElementsOf(ints(1, n + 1));
    }

    /** A source worker: emits {@code id * 1000 + k} for k below {@code count}. */
    private static final class SourceWorker extends Node<Void, Integer> {
        private final int count;
        private int k;

        SourceWorker(int count) {
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            return k < count ? Integer.valueOf(id() * 1000 + k++) : eos();
        }
    }

    private static List<Integer> sourceWorkerItems(int workers, int count) {
        List<Integer> expected = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            for (int k = 0; k < count; k++) {
                expected.add(w * 1000 + k);
            }
        }
        return expected;
    }

    @Test
    void shouldRunWorkersAsSourcesWhenTheFarmHasNoEmitterAndNoInput() {
        Sink<Integer> collector = new Sink<>();
        Farm.of(4, () -> new SourceWorker(300)).collector(collector).runAndWaitEnd();

        assertThat(collector.items).containsExactlyInAnyOrderElementsOf(sourceWorkerItems(4, 300));
    }

    @Test
    void shouldFeedTheNextStageFromSourceWorkersWithoutCollector() {
        CollectByChannel<Integer> sink = new CollectByChannel<>();
        new Pipeline(Farm.of(3, () -> new SourceWorker(300)), sink).runAndWaitEnd(BLOCKING);

        assertThat(sink.items()).containsExactlyInAnyOrderElementsOf(sourceWorkerItems(3, 300));
        for (Arrival<Integer> a : sink.arrivals) {
            assertThat(a.channel()).isEqualTo(a.item() / 1000);
        }
    }

    /** Remembers the id() it had during the run. */
    private static final class IdProbe extends Node<Integer, Integer> {
        volatile int idAtInit = -1;

        @Override
        protected void svcInit() {
            idAtInit = id();
        }

        @Override
        protected Integer svc(Integer item) {
            return item;
        }
    }

    @Test
    void shouldNumberWorkersByTheirPositionInTheFarm() {
        List<IdProbe> workers = List.of(new IdProbe(), new IdProbe(), new IdProbe(), new IdProbe(), new IdProbe());
        new Pipeline(source(0, 10), Farm.of(workers), new Sink<Integer>()).runAndWaitEnd();

        for (int i = 0; i < workers.size(); i++) {
            assertThat(workers.get(i).idAtInit).isEqualTo(i);
        }
    }

    // ------------------------------------------------------------------ nesting

    @Test
    void shouldRunAFarmOfTwoStagePipelines() {
        int n = 2000;
        Sink<Integer> sink = new Sink<>();
        Farm farm = Farm.of(3, () -> new Pipeline(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x * 2)));
        new Pipeline(source(0, n), farm, sink).runAndWaitEnd(BLOCKING.queueCapacity(2));

        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, n).map(x -> (x + 1) * 2).boxed().toList());
    }

    @Test
    void shouldRunAFarmOfTwoStagePipelinesWithACollector() {
        int n = 2000;
        Sink<Integer> collector = new Sink<>();
        Farm farm = Farm.of(2, () -> new Pipeline(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x * 2)))
                .collector(collector);
        new Pipeline(source(0, n), farm).runAndWaitEnd();

        assertThat(collector.items)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, n).map(x -> (x + 1) * 2).boxed().toList());
    }

    @Test
    void shouldRunAFarmWhoseWorkersAreFarms() {
        int n = 2000;
        Sink<Integer> sink = new Sink<>();
        Farm inner1 = Farm.of(2, () -> Node.of((Integer x) -> x * 3)).collector(Node.of((Integer x) -> x + 1));
        Farm inner2 = Farm.of(3, () -> Node.of((Integer x) -> x * 3)).collector(Node.of((Integer x) -> x + 1));
        new Pipeline(source(0, n), Farm.of(inner1, inner2).collector(sink)).runAndWaitEnd(BLOCKING);

        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, n).map(x -> x * 3 + 1).boxed().toList());
    }

    @Test
    void shouldRunAFarmWhoseWorkersAreFarmsWithoutCollectors() {
        int n = 2000;
        Sink<Integer> sink = new Sink<>();
        Farm inner1 = Farm.of(2, () -> Node.of((Integer x) -> x * 3));
        Farm inner2 = Farm.of(2, () -> Node.of((Integer x) -> x * 3));
        new Pipeline(source(0, n), Farm.of(inner1, inner2), sink).runAndWaitEnd();

        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, n).map(x -> x * 3).boxed().toList());
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverEachItemOnceThroughAFarmIntoAFarmOfAnotherWidth(WaitStrategy strategy) {
        int n = 5000;
        Sink<Integer> sink = new Sink<>();
        Farm first = Farm.of(3, () -> Node.of((Integer x) -> x + 1));
        Farm second = Farm.of(2, () -> Node.of((Integer x) -> x * 2));
        new Pipeline(source(0, n), first, second, sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(4));

        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, n).map(x -> (x + 1) * 2).boxed().toList());
    }

    @Test
    void shouldDeliverEachItemOnceThroughAPipelineOfFarms() {
        int n = 3000;
        Sink<Integer> sink = new Sink<>();
        Farm first = Farm.of(2, () -> Node.of((Integer x) -> x + 1)).collector(Node.of((Integer x) -> x * 2));
        Farm second = Farm.of(3, () -> Node.of((Integer x) -> x - 1)).onDemand();
        Farm third = Farm.of(2, () -> Node.of((Integer x) -> x * 10));
        new Pipeline(source(0, n), first, second, third, sink).runAndWaitEnd(BLOCKING);

        assertThat(sink.items)
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, n)
                        .map(x -> ((x + 1) * 2 - 1) * 10)
                        .boxed()
                        .toList());
    }

    @Test
    void shouldNumberTheStagesOfAPipelineWorkerByStageIndex() {
        // a pipeline worker's stages get their stage index as id(); farm workers their worker index
        Set<Integer> firstStageIds = Collections.synchronizedSet(new TreeSet<>());
        Set<Integer> secondStageIds = Collections.synchronizedSet(new TreeSet<>());
        Farm farm = Farm.of(
                3,
                () -> new Pipeline(
                        new Node<Integer, Integer>() {
                            @Override
                            protected Integer svc(Integer x) {
                                firstStageIds.add(id());
                                return x;
                            }
                        },
                        new Node<Integer, Integer>() {
                            @Override
                            protected Integer svc(Integer x) {
                                secondStageIds.add(id());
                                return x;
                            }
                        }));
        new Pipeline(source(0, 300), farm, new Sink<Integer>()).runAndWaitEnd();

        assertThat(firstStageIds).containsExactly(0);
        assertThat(secondStageIds).containsExactly(1);
    }

    // ------------------------------------------------------------------ nodes ending early

    /** Passes items on and records them; returns eos() at task {@code quitAt} (0 = never). */
    private static final class Quitter extends Node<Integer, Integer> {
        private final int quitAt;
        private final List<Integer> passed;
        private int tasks;

        Quitter(int quitAt, List<Integer> passed) {
            this.quitAt = quitAt;
            this.passed = passed;
        }

        @Override
        protected Integer svc(Integer x) {
            if (++tasks == quitAt) {
                return eos();
            }
            passed.add(x);
            return x;
        }
    }

    @ParameterizedTest(name = "onDemand={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void shouldKeepServingTheOtherWorkersWhenOneWorkerEndsEarly(boolean onDemand) {
        int n = 3000;
        List<Integer> passed = Collections.synchronizedList(new ArrayList<>());
        Farm farm = Farm.of(new Quitter(0, passed), new Quitter(3, passed), new Quitter(0, passed));
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(0, n), onDemand ? farm.onDemand() : farm, sink)
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(4));

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(passed);
        // at most the quitting worker's 3rd task and what sat in its queue (4) or slot (1) are lost
        assertThat(sink.items.size()).isGreaterThanOrEqualTo(n - 5);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldStopAnEndlessSourceWhenEveryWorkerEnded(WaitStrategy strategy) {
        Node<Void, Integer> source = infiniteSource();
        List<Integer> passed = Collections.synchronizedList(new ArrayList<>());
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source, Farm.of(3, () -> new Quitter(11, passed)), sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(8));

        assertThat(passed).hasSize(30);
        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(passed);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldStopAnEndlessSourceWhenEveryOnDemandWorkerEnded(WaitStrategy strategy) {
        // the emitter's items wait in its staging channel: once no worker is left, it must end too
        List<Integer> passed = Collections.synchronizedList(new ArrayList<>());
        Sink<Integer> sink = new Sink<>();
        new Pipeline(infiniteSource(), Farm.of(3, () -> new Quitter(11, passed)).onDemand(), sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(8));

        assertThat(passed).hasSize(30);
        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(passed);
    }

    /** An emitter that records how far ahead of the workers its sendOut calls have got. */
    private static final class AheadEmitter extends Node<Void, Integer> {
        private final int n;
        final AtomicInteger sent = new AtomicInteger();
        final AtomicInteger started = new AtomicInteger();
        final AtomicInteger maxAhead = new AtomicInteger();

        AheadEmitter(int n) {
            this.n = n;
        }

        @Override
        protected Integer svc(Void none) {
            for (int i = 0; i < n; i++) {
                sendOut(i);
                int ahead = sent.incrementAndGet() - started.get();
                maxAhead.accumulateAndGet(ahead, Math::max);
            }
            return eos();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldKeepAnOnDemandEmitterWithinOneChannelPerWorkerOfTheWorkers(WaitStrategy strategy) {
        // back-pressure as with round-robin: the emitter gets ahead by at most the run's capacity per
        // worker, plus what the workers hold (a slot each and the task in hand)
        int capacity = 8;
        int workers = 3;
        AheadEmitter emitter = new AheadEmitter(300);
        Farm farm = Farm.of(
                        workers,
                        () -> Node.of((Integer x) -> {
                            emitter.started.incrementAndGet();
                            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                            return x;
                        }))
                .emitter(emitter)
                .onDemand();
        Sink<Integer> sink = new Sink<>();
        new Pipeline(farm, sink)
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(capacity));

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(ints(0, 300));
        assertThat(emitter.maxAhead.get()).isGreaterThan(workers).isLessThanOrEqualTo((capacity + 2) * workers);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldStopAnEndlessSourceWhenTheCollectorEnded(WaitStrategy strategy) {
        Node<Void, Integer> source = infiniteSource();
        List<Integer> collected = Collections.synchronizedList(new ArrayList<>());
        Node<Integer, Integer> collector = new Node<>() {
            @Override
            protected Integer svc(Integer x) {
                collected.add(x);
                return collected.size() == 100 ? eos() : x;
            }
        };
        new Pipeline(source, Farm.of(3, () -> Node.of((Integer x) -> x)).collector(collector))
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy).queueCapacity(8));

        assertThat(collected).hasSize(100).doesNotHaveDuplicates();
    }

    /** An emitter broadcasting each item to every worker. */
    private static final class Broadcaster extends MultiOutputNode<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) {
            broadcast(x);
            return goOn();
        }
    }

    @Test
    void shouldGiveEveryWorkerEveryItemWhenTheEmitterBroadcasts() {
        int n = 1000;
        List<Recorder<Integer>> workers = recorders(3);
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(0, n), Farm.of(workers).emitter(new Broadcaster()), sink)
                .runAndWaitEnd(BLOCKING.queueCapacity(2));

        for (Recorder<Integer> w : workers) {
            assertThat(w.seen).containsExactlyElementsOf(ints(0, n));
        }
        assertThat(sink.items).hasSize(3 * n);
    }

    @Test
    void shouldRunAFarmOfOneWorker() {
        int n = 500;
        Sink<Integer> sink = new Sink<>();
        new Pipeline(source(0, n), Farm.of(Node.of((Integer x) -> x + 1)), sink).runAndWaitEnd();

        assertThat(sink.items).containsExactlyElementsOf(ints(1, n + 1));
    }
}
