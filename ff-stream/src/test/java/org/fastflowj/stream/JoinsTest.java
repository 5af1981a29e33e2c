package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Both joins against brute-force pairs over the same events, in and out of order, p = 1 and 3. */
@Timeout(60)
class JoinsTest {
    record Event(long ts, String key, String id) {}

    static final long DISORDER = 500;

    /** Events of 5 keys, their times going back by less than DISORDER ms. */
    static List<Event> events(String side, int count, long seed) {
        Random random = new Random(seed);
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            events.add(new Event(i * 53L + random.nextInt(40), "k" + random.nextInt(5), side + i));
        }
        Map<Event, Long> arrival = new HashMap<>();
        events.forEach(e -> arrival.put(e, e.ts + random.nextInt((int) DISORDER)));
        events.sort(Comparator.comparing(arrival::get));
        return events;
    }

    static final List<Event> LEFT = events("l", 1_500, 1);
    static final List<Event> RIGHT = events("r", 1_200, 2);

    static DataStream<Event> timed(StreamJob job, List<Event> events, String name) {
        return job.source(Sources.of(events))
                .name(name)
                .withTimestamps(Event::ts, Watermarks.boundedDisorder(Duration.ofMillis(DISORDER)));
    }

    static List<String> windowJoin(Windows windows, int parallelism) {
        StreamJob job = StreamJob.named("window-join");
        CollectSink<String> out = Sinks.collect();
        timed(job, LEFT, "left")
                .join(timed(job, RIGHT, "right"))
                .where(Event::key)
                .equalTo(Event::key)
                .window(windows)
                .apply((l, r) -> l.id + "-" + r.id)
                .parallelism(parallelism)
                .sink(out);
        JobStats stats = job.run();
        assertThat(stats.totalLateRecords()).isZero();
        return sorted(out.items());
    }

    static List<String> sorted(List<String> lines) {
        List<String> copy = new ArrayList<>(lines);
        copy.sort(null);
        return copy;
    }

    /** Every pair of one key, once per window [start, start + size) holding both. */
    static List<String> bruteWindows(long size, long slide) {
        List<String> pairs = new ArrayList<>();
        for (Event l : LEFT) {
            for (Event r : RIGHT) {
                if (!l.key.equals(r.key)) {
                    continue;
                }
                for (long start = Math.floorDiv(l.ts - size, slide) * slide; start <= l.ts; start += slide) {
                    boolean holdsBoth = l.ts >= start && l.ts < start + size && r.ts >= start && r.ts < start + size;
                    if (holdsBoth) {
                        pairs.add(l.id + "-" + r.id);
                    }
                }
            }
        }
        return sorted(pairs);
    }

    /** Every pair of one key in the same session of the key's records of both sides. */
    static List<String> bruteSessions(long gap) {
        Map<String, List<Event>> byKey = new HashMap<>();
        for (Event e : LEFT) {
            byKey.computeIfAbsent(e.key, k -> new ArrayList<>()).add(e);
        }
        for (Event e : RIGHT) {
            byKey.computeIfAbsent(e.key, k -> new ArrayList<>()).add(e);
        }
        List<String> pairs = new ArrayList<>();
        for (List<Event> keyEvents : byKey.values()) {
            keyEvents.sort(Comparator.comparingLong(Event::ts));
            List<Event> session = new ArrayList<>();
            long end = Long.MIN_VALUE;
            for (Event e : keyEvents) {
                if (!session.isEmpty() && e.ts > end) { // a window touching the session merges with it
                    crossPairs(session, pairs);
                    session.clear();
                }
                session.add(e);
                end = Math.max(end, e.ts + gap);
            }
            crossPairs(session, pairs);
        }
        return sorted(pairs);
    }

    static void crossPairs(List<Event> session, List<String> pairs) {
        for (Event l : session) {
            for (Event r : session) {
                if (l.id.startsWith("l") && r.id.startsWith("r")) {
                    pairs.add(l.id + "-" + r.id);
                }
            }
        }
    }

    @ParameterizedTest(name = "tumbling({0} ms), p = {1}")
    @CsvSource({"1000, 1", "1000, 3", "250, 3"})
    void aTumblingJoinPairsTheKeysRecordsOfEachWindow(long size, int parallelism) {
        List<String> expected = bruteWindows(size, size);
        assertThat(expected).hasSizeGreaterThan(1_000);
        assertThat(windowJoin(Windows.tumbling(Duration.ofMillis(size)), parallelism))
                .isEqualTo(expected);
    }

    @ParameterizedTest(name = "sliding({0} ms, {1} ms), p = {2}")
    @CsvSource({"1000, 250, 1", "1000, 250, 3", "900, 300, 2"})
    void aSlidingJoinPairsThemOncePerWindowHoldingBoth(long size, long slide, int parallelism) {
        assertThat(windowJoin(Windows.sliding(Duration.ofMillis(size), Duration.ofMillis(slide)), parallelism))
                .isEqualTo(bruteWindows(size, slide));
    }

    @ParameterizedTest(name = "session({0} ms), p = {1}")
    @CsvSource({"60, 1", "60, 3", "200, 2"})
    void aSessionJoinPairsTheRecordsOfEachSessionOfBothSides(long gap, int parallelism) {
        List<String> expected = bruteSessions(gap);
        assertThat(expected).isNotEmpty();
        assertThat(windowJoin(Windows.session(Duration.ofMillis(gap)), parallelism))
                .isEqualTo(expected);
    }

    static List<String> intervalJoin(long lower, long upper, int parallelism, List<Long> times) {
        StreamJob job = StreamJob.named("interval-join");
        CollectSink<String> out = Sinks.collect();
        DataStream<Event> left = timed(job, LEFT, "left");
        DataStream<Event> right = timed(job, RIGHT, "right");
        left.keyBy(Event::key)
                .intervalJoin(right.keyBy(Event::key))
                .between(Duration.ofMillis(lower), Duration.ofMillis(upper))
                .apply((l, r) -> l.id + "-" + r.id + "@" + Math.max(l.ts, r.ts))
                .parallelism(parallelism)
                .keyBy(pair -> pair)
                .process(() -> new KeyedProcessFunction<String, String, String>() {
                    @Override
                    public void processElement(String pair, Context<String, String> context) {
                        // the pair's time is the later of its two records' times
                        times.add(context.timestamp());
                        context.emit(pair);
                    }
                })
                .sink(out);
        assertThat(job.run().totalLateRecords()).isZero();
        return sorted(out.items());
    }

    static List<String> bruteInterval(long lower, long upper) {
        List<String> pairs = new ArrayList<>();
        for (Event l : LEFT) {
            for (Event r : RIGHT) {
                if (l.key.equals(r.key) && r.ts >= l.ts + lower && r.ts <= l.ts + upper) {
                    pairs.add(l.id + "-" + r.id + "@" + Math.max(l.ts, r.ts));
                }
            }
        }
        return sorted(pairs);
    }

    @ParameterizedTest(name = "between({0} ms, {1} ms), p = {2}")
    @CsvSource({"-200, 300, 1", "-200, 300, 3", "0, 0, 2", "100, 700, 3", "-700, -100, 2"})
    void anIntervalJoinPairsRecordsWithinTheBoundsAtTheLaterTime(long lower, long upper, int parallelism) {
        List<Long> times = java.util.Collections.synchronizedList(new ArrayList<>());
        List<String> pairs = intervalJoin(lower, upper, parallelism, times);
        assertThat(pairs).isEqualTo(bruteInterval(lower, upper));
        List<Long> expectedTimes = new ArrayList<>();
        for (String pair : pairs) {
            expectedTimes.add(Long.parseLong(pair.substring(pair.indexOf('@') + 1)));
        }
        expectedTimes.sort(null);
        List<Long> seen = new ArrayList<>(times);
        seen.sort(null);
        assertThat(seen).isEqualTo(expectedTimes);
    }

    /**
     * {@code first} in order, then, once {@code passed} opened (the job showed its watermark passed a
     * window), {@code last}: a record behind that watermark, late whatever the order of the channels.
     */
    static Source<Event> thenLate(List<Event> first, Event last, java.util.concurrent.CountDownLatch passed) {
        return new Source<>() {
            @Override
            public String name() {
                return "then late";
            }

            @Override
            public SourceReader<Event> open(int instance, int instances) {
                return new SourceReader<>() {
                    private int next;

                    @Override
                    public boolean emit(java.util.function.Consumer<? super Event> out) throws InterruptedException {
                        if (next < first.size()) {
                            out.accept(first.get(next++));
                            return true;
                        }
                        if (!passed.await(10, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                            return true;
                        }
                        out.accept(last);
                        return false;
                    }
                };
            }
        };
    }

    @Test
    void aRecordBehindTheWindowedJoinsWatermarkIsCountedLateAndJoinsNothing() {
        java.util.concurrent.CountDownLatch fired = new java.util.concurrent.CountDownLatch(1);
        StreamJob job = StreamJob.named("late-join");
        List<String> joined = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Event> left = List.of(new Event(1_000, "k", "l0"), new Event(20_000, "k", "l1"));
        List<Event> right = List.of(new Event(1_200, "k", "r0"), new Event(30_000, "k", "r1"));
        job.source(Sources.of(left))
                .withTimestamps(Event::ts, Watermarks.ascending())
                .join(job.source(thenLate(right, new Event(1_100, "k", "late"), fired))
                        .withTimestamps(Event::ts, Watermarks.ascending()))
                .where(Event::key)
                .equalTo(Event::key)
                .window(Windows.tumbling(Duration.ofSeconds(5)))
                .apply((l, r) -> l.id + "-" + r.id)
                .sink(Sinks.forEach(pair -> {
                    joined.add(pair);
                    fired.countDown(); // [0, 5000) fired: the join's watermark passed 4999
                }));
        JobStats stats = job.run();
        assertThat(joined).containsExactly("l0-r0");
        assertThat(stats.totalLateRecords()).isEqualTo(1);
    }

    @Test
    void aRecordBehindTheIntervalJoinsWatermarkIsCountedLateAndJoinsNothing() {
        java.util.concurrent.CountDownLatch passed = new java.util.concurrent.CountDownLatch(1);
        StreamJob job = StreamJob.named("late-interval-join");
        List<String> joined = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Event> left = List.of(new Event(1_000, "k", "l0"), new Event(20_000, "k", "l1"));
        List<Event> right = List.of(new Event(1_200, "k", "r0"), new Event(30_000, "k", "r1"));
        job.source(Sources.of(left))
                .withTimestamps(Event::ts, Watermarks.ascending())
                .keyBy(Event::key)
                .intervalJoin(job.source(thenLate(right, new Event(1_100, "k", "late"), passed))
                        .withTimestamps(Event::ts, Watermarks.ascending())
                        .keyBy(Event::key))
                .between(Duration.ofMillis(-500), Duration.ofMillis(500))
                .apply((l, r) -> l.id + "-" + r.id)
                .keyBy(pair -> pair)
                // a window after the join fires [0, 5000) only once the join's watermark passed 4999
                .window(Windows.tumbling(Duration.ofSeconds(5)))
                .apply(
                        (String pair,
                                long start,
                                long end,
                                List<String> pairs,
                                java.util.function.Consumer<String> out) -> pairs.forEach(out))
                .sink(Sinks.forEach(pair -> {
                    joined.add(pair);
                    passed.countDown();
                }));
        assertThat(job.run().totalLateRecords()).isEqualTo(1);
        assertThat(joined).containsExactly("l0-r0");
    }

    @Test
    void aJoinNeedsEventTimeOnBothSidesAndSaneBounds() {
        StreamJob job = StreamJob.named("bad-join");
        DataStream<Event> timedLeft = timed(job, LEFT, "left");
        DataStream<Event> untimed = job.source(Sources.of(RIGHT)).name("plain right");
        assertThatThrownBy(() -> timedLeft
                        .join(untimed)
                        .where(Event::key)
                        .equalTo(Event::key)
                        .window(Windows.tumbling(Duration.ofSeconds(1))))
                .hasMessageContaining("'plain right' needs event time");
        assertThatThrownBy(() -> timedLeft
                        .join(untimed)
                        .where(Event::key)
                        .equalTo(Event::key)
                        .window(Windows.count(3)))
                .hasMessageContaining("a join takes tumbling, sliding or session windows");
        assertThatThrownBy(() -> timedLeft
                        .keyBy(Event::key)
                        .intervalJoin(timed(job, RIGHT, "right").keyBy(Event::key))
                        .between(Duration.ofMillis(10), Duration.ofMillis(-10)))
                .hasMessageContaining("the lower bound is above the upper one");
    }
}
