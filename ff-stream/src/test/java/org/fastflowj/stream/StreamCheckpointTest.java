package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.RestartStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Stream jobs with checkpoints: an operator fails once mid-stream, the job restarts from the last
 * completed checkpoint (sources at their position, windows, keyed state and timers as they were, the
 * watermarks where they stood) and its output equals the run without a failure.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StreamCheckpointTest {
    record Click(long ts, String user, String url) {}

    private static final int CLICKS = 40_000;

    @TempDir
    Path dir;

    /** Clicks 1 ms apart on average, up to 200 ms out of order, over 40 users. */
    static List<Click> clicks() {
        Random random = new Random(7);
        List<Click> clicks = new ArrayList<>();
        for (int i = 0; i < CLICKS; i++) {
            long ts = i + random.nextInt(200);
            clicks.add(new Click(ts, "u" + random.nextInt(40), "/p" + random.nextInt(5)));
        }
        return clicks;
    }

    /** A job shape: from the timestamped clicks to lines. */
    interface Shape extends BiConsumer<DataStream<Click>, Sink<String>> {}

    static Shape shape(String name) {
        return switch (name) {
            case "tumbling" -> (clicks, sink) -> clicks.keyBy(Click::user)
                    .window(Windows.tumbling(Duration.ofMillis(500)))
                    .aggregate(Aggregates.counting())
                    .map(r -> r.start() + "," + r.key() + "," + r.value())
                    .sink(sink);
            case "sliding" -> (clicks, sink) -> clicks.keyBy(Click::user)
                    .window(Windows.sliding(Duration.ofMillis(1000), Duration.ofMillis(100)))
                    .aggregate(Aggregates.summingLong(c -> c.url().length()))
                    .map(r -> r.start() + "," + r.key() + "," + r.value())
                    .sink(sink);
            case "session" -> (clicks, sink) -> clicks.keyBy(Click::url)
                    .window(Windows.session(Duration.ofMillis(3)))
                    .aggregate(Aggregates.counting())
                    .map(r -> r.start() + "," + r.end() + "," + r.key() + "," + r.value())
                    .sink(sink);
            case "process" -> (clicks, sink) -> clicks.keyBy(Click::user)
                    .process(() -> new KeyedProcessFunction<String, Click, String>() {
                        // clicks per second of event time, reported when the watermark passes the second
                        private MapState<Long, Long> perSecond;
                        private ValueState<Long> total;

                        @Override
                        public void open(KeyedStates states) {
                            perSecond = states.map("perSecond");
                            total = states.value("total");
                        }

                        @Override
                        public void processElement(Click click, Context<String, String> ctx) {
                            long end = click.ts() / 1000 * 1000 + 999;
                            Long seen = perSecond.get(end);
                            perSecond.put(end, seen == null ? 1 : seen + 1);
                            ctx.registerEventTimeTimer(end);
                        }

                        @Override
                        public void onTimer(long time, Context<String, String> ctx) {
                            long clicks = perSecond.get(time);
                            perSecond.remove(time);
                            Long before = total.value();
                            total.update(before == null ? clicks : before + clicks);
                            ctx.emit(time + "," + ctx.key() + "," + clicks + "," + total.value());
                        }
                    })
                    .sink(sink);
            case "rolling" -> (clicks, sink) -> clicks.map(
                            c -> c.user() + "=" + c.url().length())
                    .keyBy(s -> s.substring(0, s.indexOf('=')))
                    .reduce((a, b) -> a.substring(0, a.indexOf('=') + 1)
                            + (Long.parseLong(a.substring(a.indexOf('=') + 1))
                                    + Long.parseLong(b.substring(b.indexOf('=') + 1))))
                    .sink(sink);
            default -> throw new IllegalArgumentException(name);
        };
    }

    /**
     * Runs {@code shape} over the clicks; with {@code failOnce}, a map before it throws on one record
     * once {@code afterCheckpoints} checkpoints are in the store.
     */
    private List<String> run(Shape shape, int parallelism, AtomicBoolean failOnce, RunOptions options, Path out)
            throws IOException {
        LongSupplier saved = saved(options.checkpointStore());
        StreamJob job = StreamJob.named("clicks");
        DataStream<Click> clicks = job.source(Sources.of(clicks()))
                .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofMillis(200)))
                .map(c -> {
                    failOnceAfterThreeCheckpoints(failOnce, saved, c);
                    return c;
                })
                .parallelism(parallelism);
        shape.accept(clicks, Sinks.lines(out));
        job.run(options);
        return Files.readAllLines(out);
    }

    /**
     * Throws once {@code failOnce} is armed and three checkpoints are saved; until then an armed run takes
     * a millisecond per record, so that a loaded machine saves three before the input runs out.
     */
    private static void failOnceAfterThreeCheckpoints(AtomicBoolean failOnce, LongSupplier saved, Object record) {
        if (!failOnce.get()) {
            return;
        }
        if (saved.getAsLong() < 3) {
            LockSupport.parkNanos(1_000_000);
        } else if (failOnce.compareAndSet(true, false)) {
            throw new IllegalStateException("injected failure at " + record);
        }
    }

    private static LongSupplier saved(CheckpointStore store) {
        return () -> {
            try {
                return store == null ? 0 : store.highestId();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    private RunOptions checkpointed(Path store) {
        // tag::options[]
        return RunOptions.defaults()
                .waitStrategy(WaitStrategy.BLOCKING)
                .queueCapacity(64)
                .checkpoints(Duration.ofMillis(10), CheckpointStore.directory(store))
                .restartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(10)));
        // end::options[]
    }

    @ParameterizedTest(name = "{0}, parallelism {1}, whole checkpoints once in {2}")
    @CsvSource({
        "tumbling,1,1",
        "tumbling,2,1",
        "sliding,1,1",
        "sliding,2,1",
        "session,2,1",
        "process,1,1",
        "process,2,1",
        "rolling,1,1",
        "process,1,1000",
        "process,2,4",
        "rolling,1,1000",
        "tumbling,2,1000"
    })
    void aFailedOperatorRestartsFromTheCheckpointAndTheOutputIsTheRunWithoutFailure(
            String name, int parallelism, int fullEvery) throws IOException {
        Shape shape = shape(name);
        List<String> expected =
                run(shape, parallelism, new AtomicBoolean(false), RunOptions.defaults(), dir.resolve("expected.txt"));

        AtomicBoolean failOnce = new AtomicBoolean(true);
        RunOptions options = checkpointed(dir.resolve("store")).fullCheckpointEvery(fullEvery);
        List<String> actual = run(shape, parallelism, failOnce, options, dir.resolve("actual.txt"));

        assertThat(failOnce).as("the failure was injected").isFalse();
        assertThat(expected).isNotEmpty();
        if (parallelism == 1) {
            assertThat(actual).as("byte for byte").isEqualTo(expected);
        } else {
            assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /**
     * A job that failed for good leaves the file its checkpoint names (hidden, and no output file); a
     * new run resumed from the store, as a restarted group is, takes it over and ends with the output of
     * a run without failure.
     */
    @Test
    void aRunResumedAfterAFailedOneTakesOverTheFileItsCheckpointNames() throws IOException {
        Shape shape = shape("tumbling");
        List<String> expected =
                run(shape, 1, new AtomicBoolean(false), RunOptions.defaults(), dir.resolve("expected.txt"));
        Path out = dir.resolve("actual.txt");
        RunOptions once = checkpointed(dir.resolve("store")).restartStrategy(RestartStrategy.none());

        AtomicBoolean failOnce = new AtomicBoolean(true);
        assertThatThrownBy(() -> run(shape, 1, failOnce, once, out)).isInstanceOf(JobFailedException.class);

        assertThat(out).doesNotExist();
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .anyMatch(f -> f.startsWith(".actual.txt.") && f.endsWith(".tmp"));
        }
        List<String> resumed = run(shape, 1, new AtomicBoolean(false), once.resumeFromCheckpoint(true), out);

        assertThat(resumed).as("byte for byte").isEqualTo(expected);
    }

    /** A run resumed from a checkpoint of a run that committed its file takes the file back, cut to it. */
    @Test
    void aRunResumedAfterItsFileWasCommittedRollsTheFileBack() throws IOException {
        Shape shape = shape("tumbling");
        Path out = dir.resolve("out.txt");
        RunOptions options = checkpointed(dir.resolve("store"));
        List<String> first = run(shape, 1, new AtomicBoolean(false), options, out);
        assertThat(saved(options.checkpointStore()).getAsLong()).isPositive();

        List<String> again = run(shape, 1, new AtomicBoolean(false), options.resumeFromCheckpoint(true), out);

        assertThat(again).as("the file once, not its checkpointed part twice").isEqualTo(first);
    }

    @Test
    void aSourceThatCannotReplayIsNamedBeforeTheJobStarts() {
        StreamJob job = StreamJob.named("once");
        job.source(new Source<String>() {
                    @Override
                    public String name() {
                        return "socket";
                    }

                    @Override
                    public SourceReader<String> open(int instance, int instances) {
                        return out -> false;
                    }
                })
                .sink(Sinks.collect());

        assertThatThrownBy(() -> job.run(checkpointed(dir)))
                .hasMessageContaining("socket")
                .hasMessageContaining("not replayable");
    }

    @Test
    void theLinesSourceResumesAtItsByteOffset() throws IOException {
        Path input = dir.resolve("clicks.csv");
        List<String> lines = new ArrayList<>();
        for (Click c : clicks()) {
            lines.add(c.ts() + "," + c.user() + "," + c.url());
        }
        Files.write(input, lines);
        Shape shape = shape("tumbling");
        List<List<String>> outputs = new ArrayList<>();
        for (boolean fail : new boolean[] {false, true}) {
            AtomicBoolean failOnce = new AtomicBoolean(fail);
            StreamJob job = StreamJob.named("lines");
            LongSupplier saved = saved(CheckpointStore.directory(dir.resolve("store-" + fail)));
            DataStream<Click> clicks = job.source(Sources.lines(input))
                    .map(line -> {
                        String[] f = line.split(",");
                        failOnceAfterThreeCheckpoints(failOnce, saved, line);
                        return new Click(Long.parseLong(f[0]), f[1], f[2]);
                    })
                    .parallelism(2)
                    .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofMillis(200)));
            Path out = dir.resolve("out-" + fail + ".txt");
            shape.accept(clicks, Sinks.lines(out));
            job.run(checkpointed(dir.resolve("store-" + fail)));
            assertThat(failOnce).isFalse();
            outputs.add(Files.readAllLines(out));
        }
        assertThat(outputs.get(1)).containsExactlyInAnyOrderElementsOf(outputs.get(0));
    }

    /**
     * A union at parallelism 2 whose second source has one record, so one of its instances ends at once:
     * checkpoints go on, a failure well after that restarts from one, and the output is the run's without it.
     */
    @Test
    void aSourceInstanceThatEndsAtOnceLeavesTheCheckpointsGoing() throws IOException {
        List<List<String>> outputs = new ArrayList<>();
        for (boolean fail : new boolean[] {false, true}) {
            Path store = dir.resolve("store-" + fail);
            RunOptions options = fail ? checkpointed(store) : RunOptions.defaults();
            LongSupplier saved = saved(options.checkpointStore());
            AtomicBoolean failOnce = new AtomicBoolean(fail);
            StreamJob job = StreamJob.named("one-ended");
            DataStream<Long> many = job.source(Sources.generator(20_000, 40_000, i -> i))
                    .name("many")
                    .parallelism(2)
                    .withTimestamps(i -> i, Watermarks.ascending());
            DataStream<Long> one = job.source(Sources.generator(1, 0, i -> i))
                    .name("one")
                    .parallelism(2)
                    .withTimestamps(i -> i, Watermarks.ascending());
            Path out = dir.resolve("out-" + fail + ".txt");
            many.union(one)
                    .map(i -> {
                        if (failOnce.get() && saved.getAsLong() >= 5 && failOnce.compareAndSet(true, false)) {
                            throw new IllegalStateException("injected failure at " + i);
                        }
                        return i;
                    })
                    .keyBy(i -> i % 10)
                    .window(Windows.tumbling(Duration.ofMillis(100)))
                    .aggregate(Aggregates.counting())
                    .map(r -> r.start() + "," + r.key() + "," + r.value())
                    .sink(Sinks.lines(out));
            JobStats stats = job.run(options);
            if (fail) {
                assertThat(failOnce).as("the failure came, after 5 checkpoints").isFalse();
                assertThat(stats.run().checkpoints().orElseThrow().restarts()).isEqualTo(1);
            }
            outputs.add(Files.readAllLines(out));
        }
        assertThat(outputs.get(0)).hasSize(200 * 10);
        assertThat(outputs.get(1)).containsExactlyInAnyOrderElementsOf(outputs.get(0));
    }
}
