package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class StreamJobTest {
    record Reading(long ts, String key, long value) {}

    @Test
    void mapFilterFlatMapAtParallelismFourGiveWhatASequentialLoopGives() {
        List<Integer> input = IntStream.range(0, 20_000).boxed().toList();
        StreamJob job = StreamJob.named("stateless");
        CollectSink<Integer> out = Sinks.collect();
        job.source(Sources.of(input))
                .map(x -> x * 3)
                .parallelism(4)
                .filter(x -> x % 2 == 0)
                .flatMap((Integer x, java.util.function.Consumer<Integer> o) -> {
                    o.accept(x);
                    o.accept(-x);
                })
                .sink(out);
        job.run();

        List<Integer> expected = new ArrayList<>();
        for (int x : input) {
            if (x * 3 % 2 == 0) {
                expected.add(x * 3);
                expected.add(-x * 3);
            }
        }
        assertThat(out.items()).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void operatorNamesNameTheNodesWithTheirInstanceIndex() {
        StreamJob job = StreamJob.named("names");
        job.source(Sources.of(List.of(1, 2, 3)))
                .name("read")
                .map(x -> x + 1)
                .name("inc")
                .keyBy(x -> x % 2)
                .reduce(Integer::sum)
                .name("sum")
                .parallelism(2)
                .sink(Sinks.collect());
        String dot = job.toDot();
        JobStats stats = job.run();

        assertThat(dot).contains("read+inc", "sum[0]", "sum[1]", "collect");
        assertThat(stats.run().node("read+inc")).isPresent();
        assertThat(stats.run().node("sum[1]")).isPresent();
    }

    @Test
    void keyBySendsEveryRecordOfAKeyToOneInstanceInArrivalOrder() {
        List<Reading> input = LongStream.range(0, 30_000)
                .mapToObj(i -> new Reading(i, "k" + (i % 37), i))
                .toList();
        StreamJob job = StreamJob.named("keyed");
        CollectSink<String> out = Sinks.collect();
        job.source(Sources.of(input))
                .parallelism(3)
                .keyBy(Reading::key)
                .process(() -> new KeyedProcessFunction<String, Reading, String>() {
                    private ValueState<Long> last;
                    private int instance = -1;

                    @Override
                    public void open(KeyedStates states) {
                        last = states.value("last");
                        instance = System.identityHashCode(this);
                    }

                    @Override
                    public void processElement(Reading r, Context<String, String> ctx) {
                        Long previous = last.value();
                        // each source instance reads every third record: a key's records from one source
                        // instance keep their order, so per key and source instance values increase
                        ctx.emit(ctx.key() + "," + instance + "," + (previous == null || previous < r.value()));
                        last.update(Math.max(previous == null ? -1 : previous, r.value()));
                    }
                })
                .parallelism(4)
                .sink(out);
        job.run();

        Map<String, String> instanceOfKey = new TreeMap<>();
        for (String line : out.items()) {
            String[] f = line.split(",");
            assertThat(instanceOfKey.putIfAbsent(f[0], f[1])).isIn(null, f[1]);
        }
        assertThat(instanceOfKey).hasSize(37);
        assertThat(out.items()).hasSize(30_000);
    }

    // tag::keyed-state[]
    /** Counts per key, emitting the count when no record of the key came for 100 ms of event time. */
    static final class CountUntilQuiet extends KeyedProcessFunction<String, Reading, String> {
        private ValueState<Long> count;
        private ValueState<Long> timer;
        private ListState<Long> values;
        private MapState<Long, Boolean> seen;

        @Override
        public void open(KeyedStates states) {
            count = states.value("count");
            timer = states.value("timer");
            values = states.list("values");
            seen = states.map("seen");
        }

        @Override
        public void processElement(Reading r, Context<String, String> ctx) {
            count.update(count.value() == null ? 1 : count.value() + 1);
            values.add(r.value());
            seen.put(r.value(), true);
            if (timer.value() != null) {
                ctx.deleteEventTimeTimer(timer.value());
            }
            timer.update(r.ts() + 100);
            ctx.registerEventTimeTimer(r.ts() + 100);
            ctx.registerEventTimeTimer(r.ts() + 100); // once per key and time
        }

        @Override
        public void onTimer(long time, Context<String, String> ctx) {
            ctx.emit(ctx.key() + "@" + time + "=" + count.value() + "/"
                    + values.get().size() + "/" + seen.entries().size());
            count.clear();
            values.clear();
            seen.clear();
            timer.clear();
        }
    }
    // end::keyed-state[]

    @Test
    void keyedStateAndEventTimeTimersFireOncePerKeyAndTime() {
        // key a: bursts at 0-40 and 500-520; key b: one burst at 10-30
        List<Reading> input = List.of(
                new Reading(0, "a", 1),
                new Reading(10, "b", 2),
                new Reading(20, "a", 3),
                new Reading(30, "b", 4),
                new Reading(40, "a", 5),
                new Reading(500, "a", 6),
                new Reading(520, "a", 7));
        for (int p : new int[] {1, 3}) {
            StreamJob job = StreamJob.named("timers");
            CollectSink<String> out = Sinks.collect();
            job.source(Sources.of(input))
                    .withTimestamps(Reading::ts, Watermarks.ascending())
                    .keyBy(Reading::key)
                    .process(CountUntilQuiet::new)
                    .parallelism(p)
                    .sink(out);
            job.run();

            assertThat(out.items())
                    .as("parallelism " + p)
                    .containsExactlyInAnyOrder("a@140=3/3/3", "b@130=2/2/2", "a@620=2/2/2");
        }
    }

    @Test
    void lateRecordsBeyondTheLatenessGoToTheLateSinkAndWithinItRefireTheWindow() {
        // tumbling 100 ms windows, watermark = max ts - 1 (ascending), lateness 50
        // tag::lateness[]
        List<Reading> input = List.of(
                new Reading(10, "k", 1),
                new Reading(120, "k", 1), // watermark 119: window [0,100) fires with 1
                new Reading(20, "k", 1), // 99 + 50 > 119: within the lateness, [0,100) fires again with 2
                new Reading(160, "k", 1), // watermark 159: 99 + 50 <= 159, [0,100) is past its lateness
                new Reading(30, "k", 1), // late: to the late sink
                new Reading(130, "k", 1));
        StreamJob job = StreamJob.named("lateness");
        CollectSink<String> out = Sinks.collect();
        CollectSink<Reading> late = Sinks.collect();
        job.source(Sources.of(input))
                .withTimestamps(Reading::ts, Watermarks.ascending())
                .keyBy(Reading::key)
                .window(Windows.tumbling(Duration.ofMillis(100)))
                .allowedLateness(Duration.ofMillis(50))
                .lateTo(late)
                .aggregate(Aggregates.counting())
                .map(r -> r.start() + ":" + r.value())
                .sink(out);
        JobStats stats = job.run();

        assertThat(out.items()).containsExactly("0:1", "0:2", "100:3");
        assertThat(late.items()).containsExactly(new Reading(30, "k", 1));
        assertThat(stats.lateRecords()).containsEntry("tumbling(100ms)", 1L);
        // end::lateness[]
    }

    @Test
    void aUnionWaitsForItsSlowInputsWatermark() throws Exception {
        // The fast input ends its whole range before the slow one starts: had the union taken the fast
        // watermark, every slow record would be late.
        CountDownLatch fastDone = new CountDownLatch(1);
        List<Reading> fast = LongStream.range(0, 5_000)
                .mapToObj(i -> new Reading(i, "f" + i % 3, 1))
                .toList();
        Iterable<Reading> slow = () -> new Iterator<>() {
            private long next;

            @Override
            public boolean hasNext() {
                if (next == 0) {
                    await(fastDone);
                }
                return next < 5_000;
            }

            @Override
            public Reading next() {
                return new Reading(next++, "s", 1);
            }
        };
        Iterable<Reading> fastThenSignal = () -> new Iterator<>() {
            private final Iterator<Reading> it = fast.iterator();

            @Override
            public boolean hasNext() {
                if (!it.hasNext()) {
                    fastDone.countDown();
                    return false;
                }
                return true;
            }

            @Override
            public Reading next() {
                return it.next();
            }
        };
        StreamJob job = StreamJob.named("union");
        CollectSink<String> out = Sinks.collect();
        DataStream<Reading> a =
                job.source(Sources.of(fastThenSignal)).withTimestamps(Reading::ts, Watermarks.ascending());
        DataStream<Reading> b = job.source(Sources.of(slow)).withTimestamps(Reading::ts, Watermarks.ascending());
        a.union(b)
                .keyBy(r -> r.key().substring(0, 1))
                .window(Windows.tumbling(Duration.ofMillis(1_000)))
                .aggregate(Aggregates.counting())
                .parallelism(2)
                .map(r -> r.key() + r.start() + "=" + r.value())
                .sink(out);
        JobStats stats = job.run();

        assertThat(stats.totalLateRecords()).isZero();
        assertThat(out.items())
                .containsExactlyInAnyOrder(
                        "f0=1000",
                        "f1000=1000",
                        "f2000=1000",
                        "f3000=1000",
                        "f4000=1000",
                        "s0=1000",
                        "s1000=1000",
                        "s2000=1000",
                        "s3000=1000",
                        "s4000=1000");
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the fast input never ended");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void failByDefaultNamesTheOperatorAndTheRecord() {
        // tag::fail[]
        StreamJob job = StreamJob.named("fails");
        job.source(Sources.of(List.of("1", "2", "x", "4")))
                .map(Integer::parseInt)
                .name("parse")
                .sink(Sinks.collect());

        JobFailedException failure = catchThrowableOfType(JobFailedException.class, job::run);
        assertThat(failure.operator()).isEqualTo("'parse'");
        assertThat(failure.record()).isEqualTo("record 'x'");
        assertThat(failure).hasMessageContaining("operator 'parse' failed on record 'x'");
        assertThat(failure.getCause()).isInstanceOf(NumberFormatException.class);
        // end::fail[]
    }

    @Test
    void skipDropsAndCountsTheFailingRecords() {
        StreamJob job = StreamJob.named("skips");
        // tag::skip[]
        CollectSink<Integer> out = Sinks.collect();
        job.source(Sources.of(List.of("1", "x", "3", "y")))
                .map(Integer::parseInt)
                .name("parse")
                .onError(ErrorPolicy.skip())
                .sink(out);
        JobStats stats = job.run();

        assertThat(out.items()).containsExactly(1, 3);
        assertThat(stats.skippedRecords()).containsExactly(Map.entry("parse", 2L));
        // end::skip[]
    }

    @Test
    void deadLetterSendsTheRecordAndItsErrorToTheSink(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.txt");
        StreamJob job = StreamJob.named("dead letters");
        CollectSink<Integer> out = Sinks.collect();
        job.source(Sources.of(List.of("1", "x", "3")))
                .parallelism(2)
                .map(Integer::parseInt)
                .name("parse")
                .onError(ErrorPolicy.deadLetter(Sinks.lines(bad)))
                .sink(out);
        JobStats stats = job.run();

        assertThat(out.items()).containsExactlyInAnyOrder(1, 3);
        assertThat(Files.readAllLines(bad))
                .singleElement()
                .asString()
                .startsWith("parse\tx\tjava.lang.NumberFormatException");
        assertThat(stats.deadLetters()).containsEntry("parse", 1L);
    }

    @Test
    void aFailedJobLeavesNoOutputFileAndKeepsTheOldOne(@TempDir Path dir) throws Exception {
        Path target = dir.resolve("out.txt");
        Files.writeString(target, "previous\n");
        StreamJob job = StreamJob.named("file");
        job.source(Sources.of(IntStream.range(0, 10_000).boxed().toList()))
                .map(x -> {
                    if (x == 9_000) {
                        throw new IllegalStateException("boom");
                    }
                    return x;
                })
                .sink(Sinks.lines(target));
        catchThrowableOfType(JobFailedException.class, job::run);

        assertThat(Files.readString(target)).isEqualTo("previous\n");
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(target);
        }
    }

    @Test
    void aSucceededJobReplacesTheFileWhole(@TempDir Path dir) throws Exception {
        Path input = dir.resolve("in.txt");
        Files.write(input, List.of("a", "b", "c"));
        Path target = dir.resolve("out.txt");
        StreamJob job = StreamJob.named("file");
        job.source(Sources.lines(input)).map(String::toUpperCase).sink(Sinks.lines(target));
        job.run();

        assertThat(Files.readAllLines(target)).containsExactly("A", "B", "C");
    }

    @Test
    void aSinkThatCannotWriteFailsTheJobNamingTheFile(@TempDir Path dir) {
        Path target = dir.resolve("missing-dir").resolve("out.txt");
        StreamJob job = StreamJob.named("unwritable");
        job.source(Sources.of(List.of(1))).sink(Sinks.lines(target));

        assertThat(catchThrowableOfType(JobFailedException.class, job::run)).hasMessageContaining(target.toString());
    }

    @Test
    void throughDropsAnyBlockIntoTheStream() {
        StreamJob job = StreamJob.named("through");
        // tag::through[]
        CollectSink<WindowResult<Boolean, Long>> out = Sinks.collect();
        job.source(Sources.of(IntStream.range(0, 1_000).boxed().toList()))
                .map(x -> x + 1)
                .<Integer>through(Farm.of(3, () -> Node.<Integer, Integer>of(x -> x * 10)))
                .keyBy(x -> x % 20 == 0)
                .window(Windows.count(100))
                .aggregate(Aggregates.counting())
                .parallelism(2)
                .sink(out);
        // end::through[]
        job.run();

        // one instance per key counts its 500 records in windows of 100: five full windows each
        assertThat(out.items()).hasSize(10).allSatisfy(r -> assertThat(r.value())
                .isEqualTo(100L));
        assertThat(out.items())
                .filteredOn(WindowResult::key)
                .extracting(WindowResult::start)
                .containsExactly(0L, 100L, 200L, 300L, 400L);
    }

    @Test
    void aStreamFeedsOneOperator() {
        StreamJob job = StreamJob.named("twice");
        DataStream<Integer> s = job.source(Sources.of(List.of(1)));
        s.map(x -> x);

        assertThat(catchThrowableOfType(IllegalStateException.class, () -> s.filter(x -> true)))
                .hasMessageContaining("stream 'collection' already feeds 'map'");
    }
}
