package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.RestartStrategy;
import org.fastflowj.stream.StreamCheckpointTest.Click;
import org.fastflowj.stream.StreamCheckpointTest.Shape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Sinks#lineParts}: parts become visible checkpoint by checkpoint, and whatever fails, the parts
 * in order hold the output of a run without failure, each line once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LinePartsSinkTest {
    @TempDir
    Path dir;

    /** What a run's map saw: whether a part was visible while records still flowed. */
    private final AtomicBoolean sawPartWhileRunning = new AtomicBoolean();

    /**
     * The clicks through {@code shape} into {@code sink}. The map before it fails on one record once
     * {@code failOnce} is set and 10 checkpoints are in the store (parts are visible by then), looks now
     * and then for a visible part in {@code parts}, and with checkpoints pauses as it does, so that the
     * job lasts many of them.
     */
    private void run(Shape shape, int parallelism, Sink<String> sink, AtomicBoolean failOnce, RunOptions options) {
        LongSupplier saved = saved(options.checkpointStore());
        Path parts = dir.resolve("parts");
        AtomicLong seen = new AtomicLong();
        boolean checkpointed = options.checkpointStore() != null;
        StreamJob job = StreamJob.named("clicks");
        DataStream<Click> clicks = job.source(Sources.of(StreamCheckpointTest.clicks()))
                .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofMillis(200)))
                .map(c -> {
                    if (failOnce.get() && saved.getAsLong() >= 10 && failOnce.compareAndSet(true, false)) {
                        throw new IllegalStateException("injected failure at " + c);
                    }
                    if (seen.incrementAndGet() % 50 == 0) {
                        if (checkpointed) {
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                        }
                        if (!visibleParts(parts).isEmpty()) {
                            sawPartWhileRunning.set(true);
                        }
                    }
                    return c;
                })
                .parallelism(parallelism);
        shape.accept(clicks, sink);
        job.run(options);
    }

    private static LongSupplier saved(CheckpointStore store) {
        return () -> {
            try {
                return store == null ? 0 : store.highestId();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    private RunOptions checkpointed() {
        return RunOptions.defaults()
                .waitStrategy(WaitStrategy.BLOCKING)
                .queueCapacity(64)
                .checkpoints(Duration.ofMillis(10), CheckpointStore.directory(dir.resolve("store")))
                .restartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(10)));
    }

    /** The output of a run without failure or checkpoints, through the one-file lines sink. */
    private byte[] expected(Shape shape, int parallelism) throws IOException {
        Path out = dir.resolve("expected.txt");
        run(shape, parallelism, Sinks.lines(out), new AtomicBoolean(), RunOptions.defaults());
        sawPartWhileRunning.set(false);
        return Files.readAllBytes(out);
    }

    private static List<Path> visibleParts(Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().startsWith("part-"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> hiddenFiles(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.startsWith("."))
                    .toList();
        }
    }

    private static byte[] concatenation(Path directory) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (Path part : visibleParts(directory)) {
            all.write(Files.readAllBytes(part));
        }
        return all.toByteArray();
    }

    private static Map<Path, byte[]> contents(List<Path> parts) throws IOException {
        Map<Path, byte[]> contents = new LinkedHashMap<>();
        for (Path part : parts) {
            contents.put(part, Files.readAllBytes(part));
        }
        return contents;
    }

    private static List<String> lines(byte[] bytes) {
        return Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\n"));
    }

    @ParameterizedTest(name = "{0}, parallelism {1}")
    @CsvSource({"tumbling,1", "sliding,1", "process,2"})
    void partsAppearCheckpointByCheckpointAndARestartLeavesEveryLineInOnePart(String name, int parallelism)
            throws IOException {
        Shape shape = StreamCheckpointTest.shape(name);
        byte[] expected = expected(shape, parallelism);
        Path parts = dir.resolve("parts");
        AtomicBoolean failOnce = new AtomicBoolean(true);

        run(shape, parallelism, Sinks.lineParts(parts), failOnce, checkpointed());

        assertThat(failOnce).as("the failure was injected").isFalse();
        assertThat(sawPartWhileRunning)
                .as("a part was visible while the job ran")
                .isTrue();
        assertThat(visibleParts(parts)).hasSizeGreaterThanOrEqualTo(2);
        if (parallelism == 1) {
            assertThat(concatenation(parts)).as("byte for byte").isEqualTo(expected);
        } else {
            assertThat(lines(concatenation(parts))).containsExactlyInAnyOrderElementsOf(lines(expected));
        }
        assertThat(hiddenFiles(parts)).isEmpty();
    }

    /**
     * A job that failed for good leaves its visible parts and the pending ones its checkpoint names; a new
     * run resumed from the store, as a new process is, commits those, redoes the rest and ends with the
     * output of a run without failure, the parts visible before it untouched.
     */
    @Test
    void aRunResumedInANewProcessEndsWithTheOutputOfARunWithoutFailure() throws IOException {
        Shape shape = StreamCheckpointTest.shape("tumbling");
        byte[] expected = expected(shape, 1);
        Path parts = dir.resolve("parts");
        RunOptions options = RunOptions.defaults()
                .checkpoints(Duration.ofMillis(10), CheckpointStore.directory(dir.resolve("store")))
                .restartStrategy(RestartStrategy.none());
        assertThatThrownBy(() -> run(shape, 1, Sinks.lineParts(parts), new AtomicBoolean(true), options))
                .isInstanceOf(JobFailedException.class);
        Map<Path, byte[]> visibleAfterFailure = contents(visibleParts(parts));
        assertThat(visibleAfterFailure).as("parts committed before the failure").isNotEmpty();

        run(shape, 1, Sinks.lineParts(parts), new AtomicBoolean(), options.resumeFromCheckpoint(true));

        assertThat(concatenation(parts)).as("byte for byte").isEqualTo(expected);
        assertThat(contents(visibleParts(parts))).containsAllEntriesOf(visibleAfterFailure);
        assertThat(hiddenFiles(parts)).isEmpty();
    }

    /** Resumed from its last checkpoint after it succeeded, a job finds its output committed: nothing twice. */
    @Test
    void aRunResumedAfterTheJobSucceededWritesNoLineTwice() throws IOException {
        Shape shape = StreamCheckpointTest.shape("tumbling");
        Path parts = dir.resolve("parts");
        RunOptions options = checkpointed();
        run(shape, 1, Sinks.lineParts(parts), new AtomicBoolean(), options);
        Map<Path, byte[]> first = contents(visibleParts(parts));
        assertThat(saved(options.checkpointStore()).getAsLong()).isPositive();

        run(shape, 1, Sinks.lineParts(parts), new AtomicBoolean(), options.resumeFromCheckpoint(true));

        assertThat(contents(visibleParts(parts))).containsExactlyEntriesOf(first);
        assertThat(hiddenFiles(parts)).isEmpty();
    }

    /** Without checkpoints the output is one part, visible only at the end; a second job adds its own. */
    @Test
    void withoutCheckpointsEachJobCommitsOnePartAtItsEnd() throws IOException {
        Shape shape = StreamCheckpointTest.shape("tumbling");
        byte[] expected = expected(shape, 1);
        Path parts = dir.resolve("parts");

        run(shape, 1, Sinks.lineParts(parts), new AtomicBoolean(), RunOptions.defaults());
        assertThat(sawPartWhileRunning).isFalse();
        run(shape, 1, Sinks.lineParts(parts), new AtomicBoolean(), RunOptions.defaults());

        assertThat(visibleParts(parts))
                .extracting(p -> p.getFileName().toString())
                .containsExactly("part-0-000000", "part-0-000001");
        for (Path part : visibleParts(parts)) {
            assertThat(Files.readAllBytes(part)).isEqualTo(expected);
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(part)))
                        .isEqualTo("rw-------");
            }
        }
        assertThat(hiddenFiles(parts)).isEmpty();
    }

    @Test
    void aWindowedJobWithCheckpointsWritesTheOutputOfItsOneFileSinkAsParts() throws IOException {
        byte[] expected = expected(StreamCheckpointTest.shape("tumbling"), 1);
        List<Click> clicks = StreamCheckpointTest.clicks();
        Path parts = dir.resolve("parts");
        Path store = dir.resolve("store");
        // tag::line-parts[]
        StreamJob job = StreamJob.named("click-counts");
        job.source(Sources.of(clicks))
                .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofMillis(200)))
                .keyBy(Click::user)
                .window(Windows.tumbling(Duration.ofMillis(500)))
                .aggregate(Aggregates.counting())
                .map(r -> r.start() + "," + r.key() + "," + r.value())
                .sink(Sinks.lineParts(parts)); // part-0-000000, part-0-000001, ...: at most one a checkpoint
        job.run(RunOptions.defaults()
                .checkpoints(Duration.ofMillis(10), CheckpointStore.directory(store))
                .restartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(10))));
        // end::line-parts[]

        assertThat(concatenation(parts)).isEqualTo(expected);
        assertThat(hiddenFiles(parts)).isEmpty();
    }

    @Test
    void aDirectoryThatCannotBeMadeIsNamed() throws IOException {
        Path notADirectory = Files.writeString(dir.resolve("taken"), "a file");
        StreamJob job = StreamJob.named("taken");
        job.source(Sources.of(List.of("a", "b"))).sink(Sinks.lineParts(notADirectory));

        assertThatThrownBy(job::run)
                .isInstanceOf(JobFailedException.class)
                .hasMessageContaining(notADirectory.toString());
    }
}
