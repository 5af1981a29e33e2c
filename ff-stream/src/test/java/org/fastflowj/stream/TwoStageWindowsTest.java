package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.fastflowj.core.NodeStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Windows aggregated in two stages (each reading instance sends one partial per key and frame) and
 * windows of all records: the results are those of every record added in one place.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TwoStageWindowsTest {
    record Event(long ts, String key, long value) {}

    static final long DISORDER = 300;

    /** {@code n} events of 7 keys, about 10 per ms, each arriving up to DISORDER ms late if {@code shuffled}. */
    static List<Event> events(int n, boolean shuffled, long seed) {
        Random random = new Random(seed);
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            events.add(new Event(i / 10, "k" + random.nextInt(7), 1 + random.nextInt(9)));
        }
        if (shuffled) {
            Map<Event, Long> arrival = new java.util.IdentityHashMap<>();
            events.forEach(e -> arrival.put(e, e.ts + random.nextInt((int) DISORDER)));
            events.sort((a, b) -> Long.compare(arrival.get(a), arrival.get(b)));
        }
        return events;
    }

    /** The events read by {@code readers} instances, each with its own watermark. */
    static DataStream<Event> read(StreamJob job, List<Event> events, int readers) {
        return job.source(Sources.of(events))
                .rebalance()
                .map(e -> e)
                .name("read")
                .parallelism(readers)
                .withTimestamps(Event::ts, Watermarks.boundedDisorder(Duration.ofMillis(DISORDER)));
    }

    static Windows windows(long size, long slide) {
        return size == slide
                ? Windows.tumbling(Duration.ofMillis(size))
                : Windows.sliding(Duration.ofMillis(size), Duration.ofMillis(slide));
    }

    /** "start,end,sum" of every window, over all keys ({@code byKey}: "key,start,end,sum" per key). */
    static List<String> brute(List<Event> events, long size, long slide, boolean byKey) {
        Map<String, Long> sums = new TreeMap<>();
        for (Event e : events) {
            for (long start = Math.floorDiv(e.ts - size, slide) * slide; start <= e.ts; start += slide) {
                if (e.ts < start + size) {
                    String window = start + "," + (start + size);
                    sums.merge(byKey ? e.key + "," + window : window, e.value, Long::sum);
                }
            }
        }
        List<String> lines = new ArrayList<>();
        sums.forEach((k, v) -> lines.add(k + "," + v));
        return lines;
    }

    @ParameterizedTest(name = "size {0} slide {1} shuffled {2} readers {3} windows {4}")
    @CsvSource({"100,100,false,2,1", "100,100,true,3,2", "300,100,true,2,3", "250,100,true,3,1", "1000,50,true,2,2"})
    void keyedWindowsReadByManyInstancesSumEveryWindowOfEveryKey(
            long size, long slide, boolean shuffled, int readers, int windowInstances) {
        List<Event> events = events(20_000, shuffled, size * 7 + slide);
        StreamJob job = StreamJob.named("two-stage");
        CollectSink<String> out = Sinks.collect();
        read(job, events, readers)
                .keyBy(Event::key)
                .window(windows(size, slide))
                .aggregate(Aggregates.summingLong(Event::value))
                .name("sums")
                .parallelism(windowInstances)
                .map(r -> r.key() + "," + r.start() + "," + r.end() + "," + r.value())
                .sink(out);

        JobStats stats = job.run();

        assertThat(stats.totalLateRecords()).isZero();
        assertThat(out.items()).containsExactlyInAnyOrderElementsOf(brute(events, size, slide, true));
    }

    @ParameterizedTest(name = "size {0} slide {1} shuffled {2} readers {3}")
    @CsvSource({"100,100,false,1", "100,100,true,2", "300,100,true,3", "250,100,true,2", "100,100,true,1"})
    void windowAllSumsEveryWindowOfAllRecords(long size, long slide, boolean shuffled, int readers) {
        List<Event> events = events(20_000, shuffled, size * 13 + slide);
        StreamJob job = StreamJob.named("all");
        CollectSink<String> out = Sinks.collect();
        DataStream<Event> readings = read(job, events, readers);
        // tag::window-all[]
        readings.windowAll(windows(size, slide))
                .aggregate(Aggregates.summingLong(Event::value))
                .map(r -> r.start() + "," + r.end() + "," + r.value())
                .sink(out);
        // end::window-all[]

        JobStats stats = job.run();

        assertThat(stats.totalLateRecords()).isZero();
        assertThat(out.items()).containsExactlyInAnyOrderElementsOf(brute(events, size, slide, false));
    }

    @Test
    void aCountWindowOfAllRecordsHasNoKey() {
        List<Event> events = events(2_000, false, 5);
        StreamJob job = StreamJob.named("all-count");
        CollectSink<Long> counts = Sinks.collect();
        read(job, events, 2)
                .windowAll(Windows.count(500))
                .aggregate(Aggregates.counting())
                .map(r -> r.key() == null ? r.value() : -1L)
                .sink(counts);
        job.run();
        assertThat(counts.items()).containsExactly(500L, 500L, 500L, 500L);
    }

    /**
     * Each reader sends one partial per key and frame, not its records: the window's instances take in
     * far fewer items than there are records (the rest are watermarks and ticks).
     */
    @Test
    void onlyPartialsCrossTheShuffle() {
        // 1000 events per ms: watermarks (one per ms of event time) are few too.
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            events.add(new Event(i / 1_000, "k" + i % 7, 1));
        }
        StreamJob job = StreamJob.named("partials");
        CollectSink<String> out = Sinks.collect();
        read(job, events, 2)
                .keyBy(Event::key)
                .window(Windows.tumbling(Duration.ofMillis(10)))
                .aggregate(Aggregates.summingLong(Event::value))
                .name("sums")
                .parallelism(2)
                .map(r -> r.key() + "," + r.start() + "," + r.end() + "," + r.value())
                .sink(out);

        assertThat(job.fusions()).anyMatch(line -> line.contains("read -> timestamps -> sums/partial"));
        JobStats stats = job.run();

        assertThat(out.items()).containsExactlyInAnyOrderElementsOf(brute(events, 10, 10, true));
        long windowInputs = stats.run().nodes().stream()
                .filter(n -> n.name().startsWith("sums+"))
                .mapToLong(NodeStats::itemsIn)
                .sum();
        // 7 keys x 5 frames x 2 readers partials, 50 watermarks of each reader to each instance, a few ticks.
        assertThat(windowInputs).isPositive().isLessThan(1_000);
    }

    /** A watermark per record (one record per ms): the window's instances get about one mark per frame. */
    @Test
    void watermarksReachTheWindowOncePerFrame() {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            events.add(new Event(i, "k" + i % 7, 1));
        }
        StreamJob job = StreamJob.named("marks");
        CollectSink<String> out = Sinks.collect();
        job.source(Sources.of(events))
                .rebalance()
                .map(e -> e)
                .name("read")
                .parallelism(2)
                .withTimestamps(Event::ts, Watermarks.ascending())
                .keyBy(Event::key)
                .window(Windows.tumbling(Duration.ofMillis(1_000)))
                .aggregate(Aggregates.summingLong(Event::value))
                .name("sums")
                .parallelism(2)
                .map(r -> r.key() + "," + r.start() + "," + r.end() + "," + r.value())
                .sink(out);

        JobStats stats = job.run();

        assertThat(out.items()).containsExactlyInAnyOrderElementsOf(brute(events, 1_000, 1_000, true));
        long windowInputs = stats.run().nodes().stream()
                .filter(n -> n.name().startsWith("sums+"))
                .mapToLong(NodeStats::itemsIn)
                .sum();
        // 7 keys x 50 frames x 2 readers partials, 50 marks of each reader to each instance, a few ticks.
        assertThat(windowInputs).isPositive().isLessThan(2_000);
    }

    /**
     * Lateness decided after the first stage, whose watermarks come at multiples of gcd(frame, lateness):
     * the same firings, re-firings and late records as with every watermark.
     */
    @ParameterizedTest(name = "lateness {0} ms")
    @CsvSource({"50", "30", "21"})
    void aWindowAfterItsFirstStageJudgesLatenessAsWithEveryWatermark(long lateness) {
        record Reading(long ts, String key) {}
        List<Reading> input = List.of(
                new Reading(10, "k"),
                new Reading(120, "k"), // watermark 119: window [0,100) fires with 1
                new Reading(20, "k"), // 99 + lateness > 119: [0,100) fires again with 2
                new Reading(160, "k"), // watermark 159: 99 + lateness <= 159, [0,100) is past its lateness
                new Reading(30, "k"), // late
                new Reading(130, "k"));
        StreamJob job = StreamJob.named("lateness");
        CollectSink<String> out = Sinks.collect();
        CollectSink<Reading> late = Sinks.collect();
        job.source(Sources.of(input))
                .withTimestamps(Reading::ts, Watermarks.ascending())
                .keyBy(Reading::key)
                .window(Windows.tumbling(Duration.ofMillis(100)))
                .allowedLateness(Duration.ofMillis(lateness))
                .lateTo(late)
                .aggregate(Aggregates.counting())
                .name("counts")
                .parallelism(2)
                .map(r -> r.start() + ":" + r.value())
                .sink(out);

        assertThat(job.fusions()).anyMatch(line -> line.contains("counts/partial"));
        JobStats stats = job.run();

        assertThat(out.items()).containsExactly("0:1", "0:2", "100:3");
        assertThat(late.items()).containsExactly(new Reading(30, "k"));
        assertThat(stats.lateRecords()).containsEntry("counts", 1L);
    }

    /** Run in one instance after one reader, the window has its records directly: no first stage. */
    @Test
    void aWindowFusedWithItsReaderHasNoFirstStage() {
        StreamJob job = StreamJob.named("fused");
        CollectSink<Long> out = Sinks.collect();
        job.source(Sources.of(List.of(1L, 2L, 3L)))
                .withTimestamps(i -> i, Watermarks.ascending())
                .keyBy(i -> i % 2)
                .window(Windows.tumbling(Duration.ofMillis(10)))
                .aggregate(Aggregates.counting())
                .map(WindowResult::value)
                .sink(out);

        assertThat(job.fusions()).noneMatch(line -> line.contains("/partial"));
        job.run();
        assertThat(out.items()).containsExactlyInAnyOrder(2L, 1L);
    }

    @Test
    void aWindowAllRunsAsOneInstance() {
        StreamJob job = StreamJob.named("one");
        DataStream<WindowResult<Void, Long>> all = job.source(Sources.of(List.of(1L)))
                .withTimestamps(i -> i, Watermarks.ascending())
                .windowAll(Windows.tumbling(Duration.ofMillis(10)))
                .aggregate(Aggregates.counting());
        assertThatThrownBy(() -> all.parallelism(2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("windowAll runs as one instance");
    }

    /**
     * One reader goes quiet (and idle) holding a record of the first window; the window fires on the other
     * reader's watermark and must count that record: a reader going idle sends what it holds first.
     */
    @Test
    void aReaderGoingIdleSendsItsPartialsBeforeTheWindowMovesOn() {
        CountDownLatch firstWindow = new CountDownLatch(1);
        AtomicLong quietEndedAt = new AtomicLong();
        AtomicLong firstWindowAt = new AtomicLong();
        List<WindowResult<String, Long>> results = Collections.synchronizedList(new ArrayList<>());
        StreamJob job = StreamJob.named("idle-reader");
        job.source(busyAndQuiet(firstWindow, quietEndedAt))
                .parallelism(2)
                .withTimestamps(i -> i, Watermarks.ascending().withIdleness(Duration.ofMillis(50)))
                .keyBy(i -> "all")
                .window(Windows.tumbling(Duration.ofSeconds(1)))
                .aggregate(Aggregates.counting())
                .name("counts")
                .parallelism(1)
                .sink(Sinks.forEach(r -> {
                    if (r.start() == 0) {
                        firstWindowAt.set(System.nanoTime());
                        firstWindow.countDown();
                    }
                    results.add(r);
                }));

        JobStats stats = job.run();

        assertThat(firstWindowAt.get()).isLessThan(quietEndedAt.get());
        assertThat(stats.totalLateRecords()).isZero();
        // 0..999 from the busy reader and the quiet reader's 50.
        assertThat(results)
                .filteredOn(r -> r.start() == 0)
                .extracting(WindowResult::value)
                .containsExactly(1001L);
        assertThat(results.stream().mapToLong(WindowResult::value).sum()).isEqualTo(5_001);
    }

    /**
     * Instance 0 sends times 0..4999 at once; instance 1 sends time 50, then nothing until the first window
     * fired (or 20 s passed), then ends and notes when.
     */
    static Source<Long> busyAndQuiet(CountDownLatch release, AtomicLong quietEndedAt) {
        return new Source<>() {
            @Override
            public String name() {
                return "busy-and-quiet";
            }

            @Override
            public SourceReader<Long> open(int instance, int instances) {
                long openedAt = System.nanoTime();
                return new SourceReader<>() {
                    private long next;

                    @Override
                    public boolean emit(Consumer<? super Long> out) throws InterruptedException {
                        if (instance == 0) {
                            for (int n = 0; n < 500 && next < 5_000; n++) {
                                out.accept(next++);
                            }
                            return next < 5_000;
                        }
                        if (next == 0) {
                            next = 1;
                            out.accept(50L);
                            return true;
                        }
                        boolean released = release.await(5, TimeUnit.MILLISECONDS);
                        if (released || System.nanoTime() - openedAt > TimeUnit.SECONDS.toNanos(20)) {
                            quietEndedAt.set(System.nanoTime());
                            return false;
                        }
                        return true;
                    }
                };
            }
        };
    }
}
