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

    @Test
    void aSinkThatEndsIsNotRecordedAsEndedItsEndStopsTheCheckpoints() throws IOException {
        // Two jobs side by side: the first one's sink ends early; its state holds what it commits.
        CheckpointStore store = CheckpointStore.directory(dir);
        TransactionalSink early = new TransactionalSink();
        early.named("early-sink");
        TransactionalSink late = new TransactionalSink();
        Farm jobs = Farm.of(
                new Pipeline(new CountingSource(0, 0, 0, () -> {}), new Numbering(), early),
                new Pipeline(new CountingSource(0, ITEMS, 500, () -> {}), new Numbering(), late));

        jobs.runAndWaitEnd(RunOptions.defaults().queueCapacity(64).checkpoints(Duration.ofMillis(5), store));

        assertThat(late.committed()).hasSize((int) ITEMS);
        store.latest().ifPresent(last -> assertThat(last.finished()).doesNotContain("early-sink"));
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
