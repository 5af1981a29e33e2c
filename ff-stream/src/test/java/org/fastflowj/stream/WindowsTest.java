package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every window type against a brute-force count over the same events, in and out of order, p = 1 and 4. */
@Timeout(60)
class WindowsTest {
    record Event(long ts, String key, long value) {}

    static final long DISORDER = 2_000;

    /** Keyed events with times that go back by at most DISORDER ms (so none is late). */
    static List<Event> events(int count, boolean shuffled, long seed) {
        Random random = new Random(seed);
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            events.add(new Event(i * 37L + random.nextInt(30), "k" + random.nextInt(7), random.nextInt(100)));
        }
        if (shuffled) {
            // each event arrives as if sent at ts + delay, delay < DISORDER: the disorder stays within the bound
            Map<Event, Long> arrival = new HashMap<>();
            events.forEach(e -> arrival.put(e, e.ts + random.nextInt((int) DISORDER)));
            events.sort((a, b) -> Long.compare(arrival.get(a), arrival.get(b)));
        }
        return events;
    }

    static List<String> run(List<Event> events, Windows windows, int parallelism) {
        StreamJob job = StreamJob.named("windows");
        CollectSink<String> out = Sinks.collect();
        job.source(Sources.of(events))
                .withTimestamps(Event::ts, Watermarks.boundedDisorder(Duration.ofMillis(DISORDER)))
                .keyBy(Event::key)
                .window(windows)
                .aggregate(Aggregates.summingLong(Event::value))
                .parallelism(parallelism)
                .map(r -> r.key() + "," + r.start() + "," + r.end() + "," + r.value())
                .sink(out);
        JobStats stats = job.run();
        assertThat(stats.totalLateRecords()).isZero();
        return out.items();
    }

    /** [start, end) -> key -> sum, for every window containing each event. */
    static List<String> bruteSliding(List<Event> events, long size, long slide) {
        Map<String, Long> sums = new TreeMap<>();
        for (Event e : events) {
            for (long start = Math.floorDiv(e.ts - size, slide) * slide; start <= e.ts; start += slide) {
                if (start <= e.ts && e.ts < start + size) {
                    sums.merge(e.key + "," + start + "," + (start + size), e.value, Long::sum);
                }
            }
        }
        List<String> lines = new ArrayList<>();
        sums.forEach((k, v) -> lines.add(k + "," + v));
        return lines;
    }

    static List<String> bruteSessions(List<Event> events, long gap) {
        Map<String, List<Event>> byKey = new HashMap<>();
        for (Event e : events) {
            byKey.computeIfAbsent(e.key, k -> new ArrayList<>()).add(e);
        }
        List<String> lines = new ArrayList<>();
        byKey.forEach((key, list) -> {
            list.sort((a, b) -> Long.compare(a.ts, b.ts));
            long start = list.get(0).ts;
            long end = start + gap;
            long sum = 0;
            for (Event e : list) {
                if (e.ts > end) { // a window [ts, ts + gap) touching the session merges with it
                    lines.add(key + "," + start + "," + end + "," + sum);
                    start = e.ts;
                    sum = 0;
                }
                end = Math.max(end, e.ts + gap);
                sum += e.value;
            }
            lines.add(key + "," + start + "," + end + "," + sum);
        });
        return lines;
    }

    @ParameterizedTest(name = "size {0} slide {1} shuffled {2} parallelism {3}")
    @CsvSource({
        "1000,1000,false,1",
        "1000,1000,true,1",
        "1000,1000,true,4",
        "3000,1000,true,1",
        "3000,1000,true,3",
        "2500,1000,true,2",
        "10000,500,true,4"
    })
    void slidingAndTumblingWindowsSumEveryWindowOfEveryKey(long size, long slide, boolean shuffled, int parallelism) {
        List<Event> events = events(5_000, shuffled, size * 31 + slide);
        Windows windows = size == slide
                ? Windows.tumbling(Duration.ofMillis(size))
                : Windows.sliding(Duration.ofMillis(size), Duration.ofMillis(slide));

        assertThat(run(events, windows, parallelism))
                .containsExactlyInAnyOrderElementsOf(bruteSliding(events, size, slide));
    }

    @ParameterizedTest(name = "gap {0} shuffled {1} parallelism {2}")
    @CsvSource({"500,false,1", "500,true,1", "500,true,4", "3000,true,2"})
    void sessionWindowsMergeRecordsCloserThanTheGap(long gap, boolean shuffled, int parallelism) {
        List<Event> events = events(4_000, shuffled, gap);
        // sparse keys make real sessions: every key's events thinned out
        List<Event> sparse = events.stream().filter(e -> e.ts % 5 < 2).toList();

        assertThat(run(sparse, Windows.session(Duration.ofMillis(gap)), parallelism))
                .containsExactlyInAnyOrderElementsOf(bruteSessions(sparse, gap));
    }

    @ParameterizedTest(name = "n {0} parallelism {1}")
    @CsvSource({"5,1", "5,4", "1,2"})
    void countWindowsCutEachKeysRecordsInArrivalOrder(long n, int parallelism) {
        List<Event> events = events(3_000, true, n);
        Map<String, List<Event>> byKey = new HashMap<>();
        events.forEach(e -> byKey.computeIfAbsent(e.key, k -> new ArrayList<>()).add(e));
        List<String> expected = new ArrayList<>();
        byKey.forEach((key, list) -> {
            for (int first = 0; first < list.size(); first = (int) (first + n)) {
                long sum = 0;
                int end = (int) Math.min(list.size(), first + n);
                for (int i = first; i < end; i++) {
                    sum += list.get(i).value;
                }
                expected.add(key + "," + first + "," + end + "," + sum);
            }
        });

        assertThat(run(events, Windows.count(n), parallelism)).containsExactlyInAnyOrderElementsOf(expected);
    }

    /** Sums of {@code value}, with or without a deduct. */
    static Aggregate<Event, long[], Long> summing(boolean deducts) {
        java.util.function.BinaryOperator<long[]> combine = (a, b) -> {
            a[0] += b[0];
            return a;
        };
        java.util.function.BiFunction<long[], Event, long[]> add = (a, e) -> {
            a[0] += e.value;
            return a;
        };
        return deducts
                ? Aggregates.of(() -> new long[1], add, combine, a -> a[0], (a, b) -> {
                    a[0] -= b[0];
                    return a;
                })
                : Aggregates.of(() -> new long[1], add, combine, a -> a[0]);
    }

    static List<String> slidingWithLateness(List<Event> events, Aggregate<Event, long[], Long> sum, int parallelism) {
        StreamJob job = StreamJob.named("deduct");
        CollectSink<String> out = Sinks.collect();
        CollectSink<Event> late = Sinks.collect();
        job.source(Sources.of(events))
                .withTimestamps(Event::ts, Watermarks.boundedDisorder(Duration.ofMillis(300)))
                .keyBy(Event::key)
                .window(Windows.sliding(Duration.ofMillis(500), Duration.ofMillis(50)))
                .allowedLateness(Duration.ofMillis(600))
                .lateTo(late)
                .aggregate(sum)
                .parallelism(parallelism)
                .map(r -> r.key() + "," + r.start() + "," + r.value())
                .sink(out);
        job.run();
        List<String> lines = new ArrayList<>(out.items());
        late.items().forEach(e -> lines.add("late " + e));
        lines.sort(null);
        return lines;
    }

    @ParameterizedTest(name = "parallelism {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 3})
    void aDeductingSlidingWindowGivesWhatCombiningItsPanesGivesLateRecordsIncluded(int parallelism) {
        // Disorder up to DISORDER (2 s) against watermarks that allow 300 ms and a lateness of 600 ms:
        // some records refire windows, some are late.
        List<Event> events = events(6_000, true, 99);
        List<String> combining = slidingWithLateness(events, summing(false), parallelism);
        assertThat(combining).anyMatch(line -> line.startsWith("late "));
        assertThat(slidingWithLateness(events, summing(true), parallelism)).isEqualTo(combining);
        // The ready-made sum keeps plain longs per key and frame: the same windows, refirings and late records.
        assertThat(slidingWithLateness(events, Aggregates.summingLong(Event::value), parallelism))
                .isEqualTo(combining);
    }
}
