package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.fastflowj.core.checkpoint.CheckpointMode;
import org.fastflowj.core.checkpoint.CheckpointStats;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.Checkpointed;
import org.fastflowj.core.checkpoint.RestartStrategy;
import org.fastflowj.core.metrics.PrometheusText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Checkpoints in one process: a node fails mid-stream, the run restarts from the last completed
 * checkpoint, and the committed output holds every result exactly once, with the stateful nodes' state
 * carried across the restart.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CheckpointRestartTest {
    private static final long ITEMS = 60_000;

    @TempDir
    Path dir;

    /**
     * from .. end-1, its next value in its snapshot: a replayable source. Pauses 1 ms every {@code
     * pauseEvery} values (0: never); runs {@code atEnd} as it ends.
     */
    static final class CountingSource extends Node<Void, Long> implements Checkpointed {
        private final long end;
        private final long pauseEvery;
        private final Runnable atEnd;
        private long next;

        CountingSource(long end, long pauseEvery) {
            this(0, end, pauseEvery, () -> {});
        }

        CountingSource(long from, long end, long pauseEvery, Runnable atEnd) {
            this.next = from;
            this.end = end;
            this.pauseEvery = pauseEvery;
            this.atEnd = atEnd;
        }

        @Override
        protected Long svc(Void input) throws InterruptedException {
            if (next == end) {
                atEnd.run();
                return eos();
            }
            if (pauseEvery > 0 && next % pauseEvery == 0) {
                Thread.sleep(1); // spread the stream over several checkpoint intervals
            }
            return next++;
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            out.writeLong(next);
        }

        @Override
        public void restore(DataInput in) throws IOException {
            next = in.readLong();
        }
    }

    /** Fails once, on the first item it takes after {@code afterCheckpoints} checkpoints were saved. */
    static final class FailOnce extends Node<Long, Long> {
        private final AtomicInteger failures;
        private final Supplier<Long> savedCheckpoints;
        private final long afterCheckpoints;

        FailOnce(AtomicInteger failures, Supplier<Long> savedCheckpoints, long afterCheckpoints) {
            this.failures = failures;
            this.savedCheckpoints = savedCheckpoints;
            this.afterCheckpoints = afterCheckpoints;
        }

        @Override
        protected Long svc(Long value) {
            if (failures.get() == 0 && savedCheckpoints.get() >= afterCheckpoints && failures.compareAndSet(0, 1)) {
                throw new IllegalStateException("injected failure at " + value);
            }
            return value * 2;
        }
    }

    /** Numbers what it sees: its count is state a restart must carry over for the numbers to stay unique. */
    static final class Numbering extends Node<Long, long[]> implements Checkpointed {
        private long seen;

        @Override
        protected long[] svc(Long value) {
            return new long[] {value, ++seen};
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

    /**
     * A two-phase-commit sink: what came since the last barrier is pending; at a barrier it is kept,
     * under the checkpoint's id, in the state; a completed checkpoint (or a restored state holding it)
     * commits it, once per id.
     */
    static final class TransactionalSink extends Node<long[], Void> implements Checkpointed {
        final Map<Long, List<long[]>> committedById = new ConcurrentHashMap<>();
        private final Map<Long, List<long[]>> precommitted = new ConcurrentHashMap<>();
        private List<long[]> pending = new ArrayList<>();

        @Override
        protected Void svc(long[] result) {
            pending.add(result);
            return goOn();
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            precommitted.put(checkpointId, pending);
            pending = new ArrayList<>();
            TreeMap<Long, List<long[]>> open = new TreeMap<>(precommitted);
            out.writeInt(open.size());
            for (Map.Entry<Long, List<long[]>> e : open.entrySet()) {
                out.writeLong(e.getKey());
                out.writeInt(e.getValue().size());
                for (long[] r : e.getValue()) {
                    out.writeLong(r[0]);
                    out.writeLong(r[1]);
                }
            }
        }

        @Override
        public void restore(DataInput in) throws IOException {
            pending = new ArrayList<>(); // what the failed attempt wrote after the checkpoint is dropped
            precommitted.clear();
            int n = in.readInt();
            for (int i = 0; i < n; i++) {
                long id = in.readLong();
                int size = in.readInt();
                List<long[]> results = new ArrayList<>(size);
                for (int k = 0; k < size; k++) {
                    results.add(new long[] {in.readLong(), in.readLong()});
                }
                commit(id, results); // this checkpoint completed, its notice may not have come
            }
        }

        @Override
        public void checkpointCompleted(long id) {
            for (Long open : new ArrayList<>(precommitted.keySet())) {
                if (open <= id) {
                    commit(open, precommitted.remove(open));
                }
            }
        }

        private void commit(long id, List<long[]> results) {
            if (results != null) {
                committedById.putIfAbsent(id, results);
            }
        }

        @Override
        protected void svcEnd() {
            checkpointCompleted(Long.MAX_VALUE);
            committedById.put(Long.MAX_VALUE, pending);
            pending = new ArrayList<>();
        }

        List<long[]> committed() {
            List<long[]> all = new ArrayList<>();
            new TreeMap<>(committedById).values().forEach(all::addAll);
            return all;
        }
    }

    private RunOptions checkpointed(CheckpointStore store) {
        return RunOptions.defaults()
                .waitStrategy(WaitStrategy.BLOCKING)
                .queueCapacity(64)
                .checkpoints(Duration.ofMillis(5), store)
                .restartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(10)));
    }

    private static void assertExactlyOnce(List<long[]> committed) {
        List<Long> values = new ArrayList<>();
        List<Long> numbers = new ArrayList<>();
        for (long[] r : committed) {
            values.add(r[0]);
            numbers.add(r[1]);
        }
        Collections.sort(values);
        Collections.sort(numbers);
        assertThat(values)
                .as("every result once")
                .isEqualTo(LongStream.range(0, ITEMS).map(v -> v * 2).boxed().toList());
        assertThat(numbers)
                .as("the numbering's state carried over the restart")
                .isEqualTo(LongStream.rangeClosed(1, ITEMS).boxed().toList());
    }

    @ParameterizedTest(name = "onDemand={0}")
    @ValueSource(booleans = {false, true})
    void aFarmWorkerThatFailsIsRestartedFromTheLastCheckpointWithOutputExactlyOnce(boolean onDemand) {
        CheckpointStore store = CheckpointStore.directory(dir);
        AtomicInteger failures = new AtomicInteger();
        Supplier<Long> saved = () -> highestId(store);
        Farm farm = Farm.of(3, () -> new FailOnce(failures, saved, 3));
        if (onDemand) {
            farm.onDemand();
        }
        TransactionalSink sink = new TransactionalSink();
        Pipeline pipeline = new Pipeline(new CountingSource(ITEMS, 500), farm, new Numbering(), sink);
        pipeline.runAndWaitEnd(checkpointed(store));

        assertThat(failures).as("the failure was injected").hasValue(1);
        assertExactlyOnce(sink.committed());
        CheckpointStats checkpoints = pipeline.stats().checkpoints().orElseThrow();
        assertThat(checkpoints.restarts()).isEqualTo(1);
        assertThat(checkpoints.completed()).isGreaterThanOrEqualTo(3);
        assertThat(checkpoints.lastId()).isEqualTo(highestId(store));
        assertThat(checkpoints.lastSizeBytes()).isPositive();
        assertThat(PrometheusText.format(pipeline.stats()))
                .contains("fastflowj_checkpoint_restarts_total 1\n")
                .contains("fastflowj_checkpoints_completed_total " + checkpoints.completed() + "\n")
                .contains("fastflowj_checkpoint_last_size_bytes " + checkpoints.lastSizeBytes() + "\n");
    }

    @Test
    void anAllToAllAlignsTheBarriersOfItsSeveralSources() {
        CheckpointStore store = CheckpointStore.directory(dir);
        AtomicInteger failures = new AtomicInteger();
        Supplier<Long> saved = () -> highestId(store);
        // two sources share the range: evens and odds
        List<BuildingBlock> left = List.of(new Strided(0), new Strided(1));
        List<BuildingBlock> right = List.of(new FailOnce(failures, saved, 3), new FailOnce(failures, saved, 3));
        TransactionalSink sink = new TransactionalSink();
        new Pipeline(new AllToAll().firstSet(left).secondSet(right), new Numbering(), sink)
                .runAndWaitEnd(checkpointed(store));

        assertThat(failures).hasValue(1);
        assertExactlyOnce(sink.committed());
    }

    @Test
    void atLeastOnceSkipsAlignmentAndLosesNothing() {
        CheckpointStore store = CheckpointStore.directory(dir);
        AtomicInteger failures = new AtomicInteger();
        Supplier<Long> saved = () -> highestId(store);
        TransactionalSink sink = new TransactionalSink();
        new Pipeline(
                        new CountingSource(ITEMS, 500),
                        Farm.of(2, () -> new FailOnce(failures, saved, 3)),
                        new Numbering(),
                        sink)
                .runAndWaitEnd(checkpointed(store).checkpointMode(CheckpointMode.AT_LEAST_ONCE));

        assertThat(failures).hasValue(1);
        List<Long> values = new ArrayList<>();
        sink.committed().forEach(r -> values.add(r[0]));
        assertThat(values)
                .containsAll(LongStream.range(0, ITEMS).map(v -> v * 2).boxed().toList());
    }

    @Test
    void withoutARestartStrategyTheFailureEndsTheRun() {
        CheckpointStore store = CheckpointStore.directory(dir);
        AtomicInteger failures = new AtomicInteger();
        Supplier<Long> saved = () -> highestId(store);
        Pipeline pipeline = new Pipeline(
                new CountingSource(ITEMS, 500),
                new FailOnce(failures, saved, 2),
                new Numbering(),
                new TransactionalSink());
        RunOptions noRestart = RunOptions.defaults().checkpoints(Duration.ofMillis(5), store);

        assertThatThrownBy(() -> pipeline.runAndWaitEnd(noRestart))
                .isInstanceOf(NodeFailedException.class)
                .rootCause()
                .hasMessageStartingWith("injected failure at");
    }

    @Test
    void aFailureThatComesBackExhaustsTheStrategyAndEndsTheRunNamingIt() {
        CheckpointStore store = CheckpointStore.directory(dir);
        Node<Long, Long> alwaysFails = new Node<>() {
            @Override
            protected Long svc(Long value) {
                if (value == 1000) {
                    throw new IllegalStateException("bad record 1000");
                }
                return value;
            }
        };
        Pipeline pipeline =
                new Pipeline(new CountingSource(ITEMS, 0), alwaysFails, new Numbering(), new TransactionalSink());
        RunOptions options = RunOptions.defaults()
                .checkpoints(Duration.ofMillis(5), store)
                .restartStrategy(RestartStrategy.fixedDelay(2, Duration.ZERO));

        assertThatThrownBy(() -> pipeline.runAndWaitEnd(options))
                .isInstanceOf(NodeFailedException.class)
                .hasRootCauseMessage("bad record 1000")
                .satisfies(e -> assertThat(e.getSuppressed()[0].getMessage())
                        .contains("2 restart(s) under fixedDelay(2 attempts"));
    }

    @Test
    void aSourceThatCannotReplayIsRefusedNamingIt() {
        Node<Void, Long> once = new Node<>() {
            @Override
            protected Long svc(Void input) {
                return eos();
            }

            @Override
            public String toString() {
                return "oneShot";
            }
        };
        Pipeline pipeline = new Pipeline(once, new Numbering(), new TransactionalSink());
        RunOptions options = RunOptions.defaults().checkpoints(Duration.ofMillis(5), CheckpointStore.directory(dir));

        assertThatThrownBy(() -> pipeline.runAndWaitEnd(options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("oneShot")
                .hasMessageContaining("not replayable");
    }

    @Test
    void aLoopIsRefused() {
        Node<Long, Long> head = new Node<>() {
            @Override
            protected Long svc(Long value) {
                return value < 10 ? value + 1 : goOn();
            }
        };
        Node<Long, Long> tail = new Node<>() {
            @Override
            protected Long svc(Long value) {
                return value;
            }
        };
        Pipeline loop = new Pipeline(head, tail).wrapAround();
        RunOptions options = RunOptions.defaults().checkpoints(Duration.ofMillis(5), CheckpointStore.directory(dir));

        assertThatThrownBy(() -> new Pipeline(new CountingSource(10, 0), loop).runAndWaitEnd(options))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("takes feedback");
    }

    @Test
    void aRunResumesFromTheNewestCheckpointInItsStore() throws Exception {
        CheckpointStore store = CheckpointStore.directory(dir);
        // a first run that fails for good after some checkpoints, as a process killed would
        AtomicInteger failures = new AtomicInteger();
        TransactionalSink first = new TransactionalSink();
        Pipeline failing = new Pipeline(
                new CountingSource(ITEMS, 500),
                new FailOnce(failures, () -> highestId(store), 3),
                new Numbering(),
                first);
        assertThatThrownBy(() -> failing.runAndWaitEnd(RunOptions.defaults().checkpoints(Duration.ofMillis(5), store)))
                .isInstanceOf(NodeFailedException.class);
        long checkpoint = store.latest().orElseThrow().id();
        assertThat(checkpoint).isGreaterThanOrEqualTo(3);

        // the same graph, new nodes, resumed: what the first committed plus what the second does is all
        TransactionalSink second = new TransactionalSink();
        new Pipeline(
                        new CountingSource(ITEMS, 0),
                        new FailOnce(new AtomicInteger(1), () -> 0L, 0),
                        new Numbering(),
                        second)
                .runAndWaitEnd(RunOptions.defaults()
                        .checkpoints(Duration.ofMillis(5), store)
                        .resumeFromCheckpoint(true));

        Map<Long, List<long[]>> all = new TreeMap<>(first.committedById);
        all.keySet().removeIf(id -> id > checkpoint); // the first run's uncommitted tail, as a real sink drops it
        all.remove(Long.MAX_VALUE);
        second.committedById.forEach(all::putIfAbsent);
        List<long[]> committed = new ArrayList<>();
        all.values().forEach(committed::addAll);
        assertExactlyOnce(committed);
    }

    /** Every other number from {@code offset}: one of two sources sharing 0 .. ITEMS-1. */
    static final class Strided extends Node<Void, Long> implements Checkpointed {
        private long next;

        Strided(long offset) {
            this.next = offset;
        }

        @Override
        protected Long svc(Void input) throws InterruptedException {
            if (next >= ITEMS) {
                return eos();
            }
            if (next % 1000 < 2) {
                Thread.sleep(1);
            }
            long v = next;
            next += 2;
            return v;
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            out.writeLong(next);
        }

        @Override
        public void restore(DataInput in) throws IOException {
            next = in.readLong();
        }
    }

    static long highestId(CheckpointStore store) {
        try {
            return store.highestId();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
