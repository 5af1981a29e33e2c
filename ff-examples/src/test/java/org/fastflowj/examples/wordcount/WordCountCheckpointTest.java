package org.fastflowj.examples.wordcount;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.RestartStrategy;
import org.fastflowj.examples.AppRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The word count in one process with checkpoints: a splitter that fails mid-stream, or a counter that
 * fails at its first table, is restarted from the last checkpoint, and the counts are a sequential
 * count's; the nodes' states read back as they were written.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WordCountCheckpointTest {
    private static final int LINES = 6_000;
    private static final int SOURCES = 3;
    /** Lines per second per source: 2000 lines each take a second, some 50 checkpoints at 20 ms. */
    private static final double RATE = 2_000;
    /** The failure waits for this many checkpoints, so that the restart is from one taken mid-stream. */
    private static final long CHECKPOINTS_BEFORE_FAILURE = 5;

    @TempDir
    Path dir;

    private Path generate(int lines, long seed) {
        return WordCountTest.generate(dir, lines, seed);
    }

    @ParameterizedTest(name = "{0} fails, whole checkpoints once in {1}")
    @CsvSource({"splitter,1", "counter,1", "splitter,1000"})
    void aNodeThatFailsOnceIsRestartedFromTheLastCheckpointAndCountsAsWithoutTheFailure(String failing, int fullEvery)
            throws IOException {
        Path input = generate(LINES, 23);
        Path output = dir.resolve("counts.tsv");
        CheckpointStore store = CheckpointStore.directory(dir.resolve("checkpoints"));
        AtomicBoolean armed = new AtomicBoolean(true);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        CountSink sink = new CountSink(output, new PrintStream(printed, true, UTF_8));

        WordCount.build(
                        SOURCES,
                        input,
                        null,
                        RATE,
                        sink,
                        () -> failing.equals("splitter") ? new FailingSplitter(armed, store) : new Splitter(),
                        () -> failing.equals("counter") ? new FailingCounter(armed, store) : new Counter())
                .runAndWaitEnd(RunOptions.defaults()
                        .checkpoints(Duration.ofMillis(20), store)
                        .fullCheckpointEvery(fullEvery)
                        .restartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(100))));

        assertThat(armed).as("the %s failed once", failing).isFalse();
        assertThat(Files.readAllLines(output, UTF_8)).isEqualTo(WordCountTest.sequentialCounts(input));
        assertThat(printed.toString(UTF_8)).contains("wordcount: " + LINES + " lines");
    }

    @Test
    void theCommandTakesCheckpointsAndCountsAsWithout() throws IOException {
        Path input = generate(LINES, 29);
        Path output = dir.resolve("counts.tsv");
        Path store = dir.resolve("checkpoints");

        AppRunner run = AppRunner.run(
                "wordcount",
                "--input",
                input.toString(),
                "--sources",
                Integer.toString(SOURCES),
                "--rate",
                Double.toString(RATE),
                "--checkpoints",
                store.toString(),
                "--checkpoint-interval",
                "PT0.02S",
                "--output",
                output.toString());

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(Files.readAllLines(output, UTF_8)).isEqualTo(WordCountTest.sequentialCounts(input));
        assertThat(checkpointFiles(store)).as("checkpoints in %s", store).isPositive();
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".writing"));
    }

    @Test
    void theCommandRefusesCheckpointsOfASocketBeforeConnecting() {
        AppRunner run = AppRunner.run(
                "wordcount",
                "--socket",
                "127.0.0.1:1",
                "--checkpoints",
                dir.resolve("checkpoints").toString());

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--checkpoints needs --input: a socket's lines are gone once read");
    }

    @Test
    void aRunWithCheckpointsRefusesASocketSourceNamingIt() {
        CountSink sink = new CountSink(null, new PrintStream(PrintStream.nullOutputStream()));
        var socket = new InetSocketAddress("127.0.0.1", 1);

        assertThatThrownBy(() -> WordCount.build(1, null, socket, 0, sink)
                        .runAndWaitEnd(RunOptions.defaults()
                                .checkpoints(
                                        Duration.ofMillis(20), CheckpointStore.directory(dir.resolve("checkpoints")))))
                .hasMessageContaining("is not replayable")
                .hasMessageContaining("LineSource[socket " + socket + ": its lines cannot be read again")
                .hasMessageContaining("it says it cannot read its input again after a restart");
    }

    @Test
    void aWordTableReadsBackAsItWasWrittenWhateverItsCharacters() throws IOException {
        WordTable table = new WordTable();
        Map<String, Long> expected = new HashMap<>();
        String[] words = {"a", "Ünïcödé", "日本語", "emoji\uD83D\uDE00", "lone\uD800", "", "x".repeat(70_000)};
        for (int i = 0; i < 20_000; i++) {
            String word = i < words.length ? words[i] : "w" + i;
            long count = i == 1 ? Long.MAX_VALUE : i % 300 + 1;
            table.add(word.toCharArray(), count);
            expected.put(word, count);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        table.writeTo(new DataOutputStream(bytes));

        WordTable read = WordTable.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));

        assertThat(read.drain()).isEqualTo(expected);
        assertThat(bytes.size()).as("about a byte a character and a count").isLessThan(70_000 + 20_000 * 10);
    }

    @Test
    void aWordTableRebuiltFromItsWholeStateAndItsChangeSetsHoldsItsCounts() throws IOException {
        WordTable table = new WordTable();
        for (int i = 0; i < 3_000; i++) {
            table.add(("w" + i).toCharArray(), 1);
        }
        table.trackChanges();
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        table.writeTo(new DataOutputStream(whole));
        table.clearChanges();
        table.add("w7".toCharArray(), 5);
        table.add("new".toCharArray(), 2);
        ByteArrayOutputStream small = new ByteArrayOutputStream();
        table.writeChangesTo(new DataOutputStream(small));
        for (int i = 0; i < 5_000; i++) { // grows the table: every word moves
            table.add(("grown" + i).toCharArray(), 1);
        }
        ByteArrayOutputStream afterGrowth = new ByteArrayOutputStream();
        table.writeChangesTo(new DataOutputStream(afterGrowth));
        table.add("w8".toCharArray(), 1);
        ByteArrayOutputStream last = new ByteArrayOutputStream();
        table.writeChangesTo(new DataOutputStream(last));

        WordTable rebuilt = WordTable.readFrom(input(whole));
        for (ByteArrayOutputStream changes : List.of(small, afterGrowth, last)) {
            rebuilt = rebuilt.withChangesFrom(input(changes));
        }

        assertThat(rebuilt.drain()).isEqualTo(table.drain());
        assertThat(small.size()).as("two words changed").isLessThan(whole.size() / 50);
        assertThat(afterGrowth.size()).as("after a growth, the whole table").isGreaterThan(whole.size());
    }

    private static DataInputStream input(ByteArrayOutputStream bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
    }

    @Test
    void aCounterRestoresItsTableInPlaceOfWhatItHad() throws IOException {
        Counter counter = new Counter();
        HashMap<String, Long> before = new HashMap<>(Map.of("a", 3L, "b", 1L));
        counter.svc(new Counts(before, 7));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        counter.snapshot(1, new DataOutputStream(bytes));
        counter.svc(new Counts(new HashMap<>(Map.of("a", 5L, "c", 2L)), 4)); // after the checkpoint: undone

        counter.restore(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        counter.snapshot(2, new DataOutputStream(again));

        assertThat(again.toByteArray()).isEqualTo(bytes.toByteArray());
    }

    @Test
    void aSinkRestartedFromItsEndStateWritesTheSameFileAgain() throws IOException {
        Path output = dir.resolve("counts.tsv");
        PrintStream quiet = new PrintStream(PrintStream.nullOutputStream());
        CountSink ended = new CountSink(output, quiet);
        ended.svcInit();
        ended.svc(new Counts(new HashMap<>(Map.of("b", 2L, "a", 1L)), 2));
        ended.svc(new Counts(new HashMap<>(Map.of("ü", 4L, "a", 3L)), 1));
        ByteArrayOutputStream endState = new ByteArrayOutputStream();
        ended.snapshot(9, new DataOutputStream(endState));
        ended.svcEnd();
        String written = Files.readString(output, UTF_8);

        CountSink restarted = new CountSink(output, quiet);
        restarted.svcInit();
        restarted.restore(new DataInputStream(new ByteArrayInputStream(endState.toByteArray())));
        restarted.svcEnd();

        assertThat(written).isEqualTo("a\t4\nb\t2\nü\t4\n");
        assertThat(Files.readString(output, UTF_8)).isEqualTo(written);
        assertThat(restarted.lines()).isEqualTo(3);
    }

    private static long checkpointFiles(Path store) throws IOException {
        try (Stream<Path> files = Files.walk(store)) {
            return files.filter(f -> f.getFileName().toString().startsWith("chk-"))
                    .count();
        }
    }

    private static boolean failNow(AtomicBoolean armed, CheckpointStore store) {
        try {
            return store.highestId() >= CHECKPOINTS_BEFORE_FAILURE && armed.compareAndSet(true, false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A splitter that fails at a chunk once the store holds a few checkpoints. */
    private static final class FailingSplitter extends Splitter {
        private final AtomicBoolean armed;
        private final CheckpointStore store;

        FailingSplitter(AtomicBoolean armed, CheckpointStore store) {
            this.armed = armed;
            this.store = store;
        }

        @Override
        protected Counts svc(TextChunk chunk) {
            if (failNow(armed, store)) {
                throw new IllegalStateException("splitter lost mid-stream");
            }
            return super.svc(chunk);
        }
    }

    /** A counter that fails at its first table (the splitters send theirs at their end), after a few checkpoints. */
    private static final class FailingCounter extends Counter {
        private final AtomicBoolean armed;
        private final CheckpointStore store;

        FailingCounter(AtomicBoolean armed, CheckpointStore store) {
            this.armed = armed;
            this.store = store;
        }

        @Override
        protected Counts svc(Counts counts) {
            if (failNow(armed, store)) {
                throw new IllegalStateException("counter lost at a table");
            }
            return super.svc(counts);
        }
    }
}
