package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.core.CheckpointRestartTest.highestId;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.fastflowj.core.CheckpointRestartTest.CountingSource;
import org.fastflowj.core.CheckpointRestartTest.Numbering;
import org.fastflowj.core.CheckpointRestartTest.TransactionalSink;
import org.fastflowj.core.checkpoint.Checkpoint;
import org.fastflowj.core.checkpoint.CheckpointMode;
import org.fastflowj.core.checkpoint.CheckpointStats;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.Checkpointed;
import org.fastflowj.core.checkpoint.RestartStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints once a part of the graph ended (a source with little to read, the nodes after it): they go
 * on, record the ended nodes, and a restart starts those as ended, so nothing they sent, their last words
 * in {@code eosNotify} included, is sent twice.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CheckpointsAfterAnEndTest {
    private static final long SHORT = 1_000;
    private static final long ITEMS = 60_000;

    @TempDir
    Path dir;

    /** Passes items on and, at its end, says how many it saw, as {@code -count}. */
    static final class CountAtEnd extends Node<Long, Long> implements Checkpointed {
        private long seen;

        @Override
        protected Long svc(Long x) {
            seen++;
            return x;
        }

        @Override
        protected void eosNotify(int channel) {
            sendOut(-seen);
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            out.writeLong(seen);
        }

        @Override
        public void restore(DataInput in) throws IOException {
            seen = in.readLong();
        }
    }

    /** Fails once, on the first item after two checkpoints were saved since the short branch ended. */
    static final class FailAfterTheEnd extends Node<Long, Long> {
        private final AtomicInteger failures;
        private final AtomicLong endedAt;
        private final CheckpointStore store;

        FailAfterTheEnd(AtomicInteger failures, AtomicLong endedAt, CheckpointStore store) {
            this.failures = failures;
            this.endedAt = endedAt;
            this.store = store;
        }

        @Override
        protected Long svc(Long x) {
            long ended = endedAt.get();
            if (ended >= 0 && highestId(store) >= ended + 2 && failures.compareAndSet(0, 1)) {
                throw new IllegalStateException("injected failure at " + x);
            }
            return x;
        }
    }

    @Test
    void aRestartAfterABranchEndedStartsItAsEndedAndSendsNothingTwice() {
        CheckpointStore store = CheckpointStore.directory(dir);
        AtomicInteger failures = new AtomicInteger();
        AtomicLong endedAt = new AtomicLong(-1);
        CountingSource shortRange = new CountingSource(0, SHORT, 0, () -> endedAt.compareAndSet(-1, highestId(store)));
        shortRange.named("short");
        CountAtEnd count = new CountAtEnd();
        count.named("count");
        Farm branches = Farm.of(
                new Pipeline(shortRange, count),
                new Pipeline(
                        new CountingSource(SHORT, ITEMS, 500, () -> {}),
                        new FailAfterTheEnd(failures, endedAt, store)));
        TransactionalSink sink = new TransactionalSink();
        sink.named("sink");
        Pipeline pipeline = new Pipeline(branches, new Numbering(), sink);

        pipeline.runAndWaitEnd(RunOptions.defaults()
                .waitStrategy(WaitStrategy.BLOCKING)
                .queueCapacity(64)
                .checkpoints(Duration.ofMillis(5), store)
                .restartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(10))));

        assertThat(failures).as("the failure was injected").hasValue(1);
        List<Long> values = new ArrayList<>();
        List<Long> numbers = new ArrayList<>();
        for (long[] r : sink.committed()) {
            values.add(r[0]);
            numbers.add(r[1]);
        }
        Collections.sort(values);
        Collections.sort(numbers);
        List<Long> expected = new ArrayList<>(List.of(-SHORT));
        LongStream.range(0, ITEMS).forEach(expected::add);
        assertThat(values)
                .as("every item once, the short branch's count once: it was not run again")
                .isEqualTo(expected);
        assertThat(numbers)
                .isEqualTo(LongStream.rangeClosed(1, ITEMS + 1).boxed().toList());
        CheckpointStats checkpoints = pipeline.stats().checkpoints().orElseThrow();
        assertThat(checkpoints.restarts()).isEqualTo(1);
        assertThat(checkpoints.lastId())
                .as("checkpoints went on after the short branch ended")
                .isGreaterThanOrEqualTo(endedAt.get() + 2);
        Checkpoint last = latest(store);
        assertThat(last.finished()).contains("short", "count");
        assertThat(last.states()).doesNotContainKeys("short", "count").containsKey("sink");
    }

    @Test
    void atLeastOnceLosesNothingWhenInputsEndAfterTheirBarrier() {
        // Unaligned, an input is read past its barrier and may end before the others' barriers come: it
        // then counts out of the barriers as of the inputs, and the checkpoint waits for the rest.
        CheckpointStore store = CheckpointStore.directory(dir);
        AtomicInteger failures = new AtomicInteger();
        AtomicLong endedAt = new AtomicLong(-1);
        Farm sources = Farm.of(
                new CountingSource(0, SHORT, 0, () -> {}),
                new CountingSource(SHORT, 2 * SHORT, 100, () -> endedAt.compareAndSet(-1, highestId(store))),
                new CountingSource(2 * SHORT, ITEMS, 500, () -> {}));
        TransactionalSink sink = new TransactionalSink();
        new Pipeline(sources, new FailAfterTheEnd(failures, endedAt, store), new Numbering(), sink)
                .runAndWaitEnd(RunOptions.defaults()
                        .queueCapacity(64)
                        .checkpointMode(CheckpointMode.AT_LEAST_ONCE)
                        .checkpoints(Duration.ofMillis(2), store)
                        .restartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(10))));

        assertThat(failures).hasValue(1);
        assertThat(sink.committed().stream().map(r -> r[0]).distinct().sorted().toList())
                .as("every item at least once")
                .isEqualTo(LongStream.range(0, ITEMS).boxed().toList());
    }

    /** Fails once, on the first item after a checkpoint that saw {@code sink} ended was saved. */
    static final class FailAfterASinkEnded extends Node<Long, Long> {
        private final AtomicInteger failures;
        private final CheckpointStore store;
        private final String sink;
        private long lastSeen = -1;

        FailAfterASinkEnded(AtomicInteger failures, CheckpointStore store, String sink) {
            this.failures = failures;
            this.store = store;
            this.sink = sink;
        }

        @Override
        protected Long svc(Long x) throws IOException {
            long highest = highestId(store);
            if (highest != lastSeen && failures.get() == 0) {
                Optional<Checkpoint> latest = store.latest(); // empty until the first one is saved
                if (latest.isPresent()) {
                    lastSeen = highest;
                    if (latest.get().finished().contains(sink) && failures.compareAndSet(0, 1)) {
                        throw new IllegalStateException("injected failure at " + x);
                    }
                }
            }
            return x;
        }
    }

    /** Two jobs side by side in one run: the first ends early in {@code early}, the second fails after it. */
    private static Farm twoJobs(
            TransactionalSink early, TransactionalSink late, AtomicInteger failures, CheckpointStore store) {
        early.named("early-sink");
        late.named("late-sink");
        return Farm.of(
                new Pipeline(new CountingSource(0, SHORT, 0, () -> {}), new Numbering(), early),
                new Pipeline(
                        new CountingSource(SHORT, ITEMS, 500, () -> {}),
                        new FailAfterASinkEnded(failures, store, "early-sink"),
                        new Numbering(),
                        late));
    }

    private static List<Long> values(TransactionalSink sink) {
        return sink.committed().stream().map(r -> r[0]).sorted().toList();
    }

    @Test
    void aSinkThatEndedKeepsTheStateItEndedWithAndTheCheckpointsGoOn() {
        CheckpointStore store = CheckpointStore.directory(dir);
        AtomicInteger failures = new AtomicInteger();
        TransactionalSink early = new TransactionalSink();
        TransactionalSink late = new TransactionalSink();
        Farm jobs = twoJobs(early, late, failures, store);

        jobs.runAndWaitEnd(RunOptions.defaults()
                .queueCapacity(64)
                .checkpoints(Duration.ofMillis(5), store)
                .restartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(10))));

        assertThat(failures)
                .as("the failure came after a checkpoint that saw the sink ended")
                .hasValue(1);
        assertThat(values(early))
                .as("the ended sink restored its end state: every item once")
                .isEqualTo(LongStream.range(0, SHORT).boxed().toList());
        assertThat(values(late))
                .isEqualTo(LongStream.range(SHORT, ITEMS).boxed().toList());
        Checkpoint last = latest(store);
        assertThat(last.finished()).contains("early-sink");
        assertThat(last.states()).containsKeys("early-sink", "late-sink");
    }

    /** Keeps the id of its snapshot at its end, and every completed checkpoint it is told of. */
    static final class EndRecordingSink extends Node<Long, Void> implements Checkpointed {
        final List<Long> told = new CopyOnWriteArrayList<>();
        volatile long endSnapshot = -1;

        @Override
        protected Void svc(Long x) {
            return goOn();
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            endSnapshot = checkpointId; // the last snapshot it takes is the one at its end
            out.writeLong(checkpointId);
        }

        @Override
        public void restore(DataInput in) throws IOException {
            in.readLong();
        }

        @Override
        public void checkpointCompleted(long id) {
            told.add(id);
        }
    }

    /**
     * A sink's end state commits what it still holds: the first checkpoint that saves it tells the sink,
     * as a checkpoint tells a running node, so a transactional sink that ended before the rest of the run
     * commits its last transaction while the run goes on.
     */
    @Test
    void anEndedSinkIsToldOfTheFirstCheckpointThatHoldsItsEndState() {
        CheckpointStore store = CheckpointStore.directory(dir);
        EndRecordingSink early = new EndRecordingSink();
        early.named("early-sink");
        TransactionalSink late = new TransactionalSink();
        late.named("late-sink");
        Farm.of(
                        new Pipeline(new CountingSource(0, SHORT, 0, () -> {}), early),
                        new Pipeline(new CountingSource(SHORT, ITEMS, 500, () -> {}), new Numbering(), late))
                .runAndWaitEnd(RunOptions.defaults().queueCapacity(64).checkpoints(Duration.ofMillis(5), store));

        long end = early.endSnapshot;
        assertThat(end).as("the sink snapshotted its end").isPositive();
        assertThat(early.told)
                .as("told of a checkpoint after its end, once")
                .filteredOn(id -> id > end)
                .hasSize(1);
    }

    @Test
    void aNewRunRestoresAnEndedSinkFromTheStore() throws IOException {
        CheckpointStore store = CheckpointStore.directory(dir);
        TransactionalSink early = new TransactionalSink();
        TransactionalSink late = new TransactionalSink();
        Farm failing = twoJobs(early, late, new AtomicInteger(), store);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> failing.runAndWaitEnd(
                        RunOptions.defaults().queueCapacity(64).checkpoints(Duration.ofMillis(5), store)))
                .isInstanceOf(NodeFailedException.class)
                .hasStackTraceContaining("injected failure");
        assertThat(store.latest().orElseThrow().finished()).contains("early-sink");
        assertThat(values(early)).as("the failed run's early sink ended").hasSize((int) SHORT);

        TransactionalSink early2 = new TransactionalSink();
        TransactionalSink late2 = new TransactionalSink();
        AtomicInteger none = new AtomicInteger(1); // armed off: the new run fails nowhere
        twoJobs(early2, late2, none, store)
                .runAndWaitEnd(RunOptions.defaults()
                        .queueCapacity(64)
                        .checkpoints(Duration.ofMillis(5), store)
                        .resumeFromCheckpoint(true));

        // A commit is idempotent by checkpoint id, as a transaction is: the runs' commits join by id.
        assertThat(valuesOf(early, early2))
                .as("a fresh sink object took the ended sink's state: its output, every item once")
                .isEqualTo(LongStream.range(0, SHORT).boxed().toList());
        assertThat(early2.committedById)
                .as("restored from its end state, not run again")
                .isNotEmpty();
        assertThat(valuesOf(late, late2))
                .as("the other job: committed before the failure, then the rest")
                .isEqualTo(LongStream.range(SHORT, ITEMS).boxed().toList());
    }

    private static List<Long> valuesOf(TransactionalSink first, TransactionalSink second) {
        java.util.TreeMap<Long, List<long[]>> byId = new java.util.TreeMap<>(first.committedById);
        byId.putAll(second.committedById);
        return byId.values().stream()
                .flatMap(List::stream)
                .map(r -> r[0])
                .sorted()
                .toList();
    }

    @Test
    void aSourceInstanceWithNothingToReadDoesNotStopTheCheckpoints() {
        CheckpointStore store = CheckpointStore.directory(dir);
        CountingSource empty = new CountingSource(0, 0, 0, () -> {});
        empty.named("empty");
        CountingSource full = new CountingSource(0, ITEMS, 500, () -> {});
        TransactionalSink sink = new TransactionalSink();
        sink.named("sink");
        Pipeline pipeline = new Pipeline(Farm.of(empty, full), new Numbering(), sink);

        pipeline.runAndWaitEnd(RunOptions.defaults().queueCapacity(64).checkpoints(Duration.ofMillis(5), store));

        assertThat(sink.committed()).hasSize((int) ITEMS);
        assertThat(pipeline.stats().checkpoints().orElseThrow().completed())
                .as("checkpoints of a run of %d ms with one source ended from the start", ITEMS / 500)
                .isGreaterThanOrEqualTo(3);
        assertThat(latest(store).finished()).contains("empty");
    }

    private static Checkpoint latest(CheckpointStore store) {
        try {
            return store.latest().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
