package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.function.Function;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.RestartStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Late records and dead letters with checkpoints: they travel down their stream to its sink node, pass
 * the barriers with the records, and roll back with the sink, so after a restart each is in its file
 * once, as in the run without failure.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SideSinkCheckpointTest {
    record Click(long ts, String user, String amount) {}

    private static final int CLICKS = 30_000;

    @TempDir
    Path dir;

    /**
     * Clicks 1 ms apart, up to 100 ms out of order; from the 2 500th on, every 50th 2 s older than its
     * neighbours (late whatever the interleaving of the instances); every 70th amount unreadable.
     */
    static List<Click> clicks() {
        Random random = new Random(11);
        List<Click> clicks = new ArrayList<>();
        for (int i = 0; i < CLICKS; i++) {
            long ts = i + random.nextInt(100) - (i >= 2_500 && i % 50 == 49 ? 2_000 : 0);
            String amount = i % 70 == 69 ? "n/a" + i : Integer.toString(random.nextInt(9));
            clicks.add(new Click(ts, "u" + random.nextInt(20), amount));
        }
        return clicks;
    }

    /** The output, the late records and the dead letters, each file's lines sorted. */
    record Files3(List<String> out, List<String> late, List<String> dead) {}

    private Files3 run(String name, AtomicBoolean failOnce, RunOptions options) throws IOException {
        CheckpointStore store = options.checkpointStore();
        Path out = dir.resolve(name + "-out.txt");
        Path late = dir.resolve(name + "-late.txt");
        Path dead = dir.resolve(name + "-dead.txt");
        StreamJob job = StreamJob.named("side sinks");
        job.source(Sources.of(clicks()))
                .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofMillis(100)))
                .map(new FailOnceWellAfterACheckpoint(failOnce, store))
                .name("maybe fail")
                .rebalance()
                .map(c -> c.user() + "=" + Integer.parseInt(c.amount()))
                .name("parse")
                .parallelism(2)
                .onError(ErrorPolicy.deadLetter(Sinks.lines(dead)))
                .keyBy(s -> s.substring(0, s.indexOf('=')))
                .window(Windows.tumbling(Duration.ofMillis(500)))
                .lateTo(Sinks.lines(late))
                .aggregate(Aggregates.summingLong(s -> Long.parseLong(s.substring(s.indexOf('=') + 1))))
                .parallelism(2)
                .map(r -> r.start() + "," + r.key() + "," + r.value())
                .rebalance()
                .parallelism(1)
                .sink(Sinks.lines(out));
        job.run(options);
        return new Files3(sorted(out), sorted(late), sorted(dead));
    }

    private static List<String> sorted(Path file) throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.sort(null);
        return lines;
    }

    /**
     * Once armed, throws on the record {@link #AFTER} records after the store's newest checkpoint changed
     * (records that take microseconds each, checkpoints 200 ms apart): so the restart replays records
     * that made late records and dead letters. Until the first checkpoint each record takes a
     * millisecond, so that one is saved before the input runs out.
     */
    static final class FailOnceWellAfterACheckpoint implements Function<Click, Click> {
        static final int AFTER = 3_000;
        private final AtomicBoolean armed;
        private final CheckpointStore store;
        private long newest;
        private long since;

        FailOnceWellAfterACheckpoint(AtomicBoolean armed, CheckpointStore store) {
            this.armed = armed;
            this.store = store;
        }

        @Override
        public Click apply(Click click) {
            if (!armed.get()) {
                return click;
            }
            long saved;
            try {
                saved = store.highestId();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            if (saved == 0) {
                LockSupport.parkNanos(1_000_000);
            } else if (saved != newest) {
                newest = saved;
                since = 0;
            } else if (++since == AFTER && armed.compareAndSet(true, false)) {
                throw new IllegalStateException("injected failure at " + click);
            }
            return click;
        }
    }

    @Test
    void lateRecordsAndDeadLettersAreWrittenOnceAcrossARestart() throws IOException {
        Files3 expected = run("expected", new AtomicBoolean(false), RunOptions.defaults());
        assertThat(expected.late()).as("the input has late records").hasSizeGreaterThan(100);
        assertThat(expected.dead()).as("the input has unreadable records").hasSize(CLICKS / 70);

        AtomicBoolean failOnce = new AtomicBoolean(true);
        Files3 actual = run(
                "actual",
                failOnce,
                RunOptions.defaults()
                        .waitStrategy(WaitStrategy.BLOCKING)
                        .queueCapacity(64)
                        .checkpoints(Duration.ofMillis(200), CheckpointStore.directory(dir.resolve("store")))
                        .restartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(10))));

        assertThat(failOnce).as("the failure was injected").isFalse();
        assertThat(actual.out()).isEqualTo(expected.out());
        assertThat(actual.late()).isEqualTo(expected.late());
        assertThat(actual.dead()).isEqualTo(expected.dead());
    }

    @Test
    void aSideSinkOfTwoStreamsTakesTheRecordsOfBoth() throws IOException {
        Path dead = dir.resolve("dead.txt");
        Sink<DeadLetter> deadLetters = Sinks.lines(dead);
        StreamJob job = StreamJob.named("two streams");
        CollectSink<Integer> first = Sinks.collect();
        CollectSink<Integer> second = Sinks.collect();
        job.source(Sources.of(List.of("1", "a", "3")))
                .map(Integer::parseInt)
                .name("first")
                .onError(ErrorPolicy.deadLetter(deadLetters))
                .sink(first);
        job.source(Sources.of(List.of("b", "5", "c")))
                .map(Integer::parseInt)
                .name("second")
                .onError(ErrorPolicy.deadLetter(deadLetters))
                .parallelism(2)
                .sink(second);
        job.run();

        assertThat(first.items()).containsExactly(1, 3);
        assertThat(second.items()).containsExactly(5);
        assertThat(sorted(dead))
                .extracting(line -> line.substring(0, line.indexOf('\t', line.indexOf('\t') + 1)))
                .containsExactly("first\ta", "second\tb", "second\tc");
    }
}
