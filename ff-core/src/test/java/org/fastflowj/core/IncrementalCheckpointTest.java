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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.fastflowj.core.CheckpointRestartTest.CountingSource;
import org.fastflowj.core.CheckpointRestartTest.FailOnce;
import org.fastflowj.core.CheckpointRestartTest.TransactionalSink;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.IncrementalCheckpointed;
import org.fastflowj.core.checkpoint.RestartStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Incremental checkpoints: a node of many keys writes its whole state once in n checkpoints and its
 * changes at the others; a restart, in the process or from the store in a new run, rebuilds its state
 * from the whole one and the changes after it, and the output is exactly once with the counts going on.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IncrementalCheckpointTest {
    private static final long ITEMS = 60_000;
    private static final long KEYS = 20_000;

    @TempDir
    Path dir;

    /** Counts each key's values (half the doubled value, mod KEYS), emits [value, the key's count]; notes changed keys. */
    static final class KeyedCounts extends Node<Long, long[]> implements IncrementalCheckpointed {
        private final Map<Long, Long> counts = new HashMap<>();
        private Set<Long> changed;
        final AtomicInteger wholeSnapshots = new AtomicInteger();
        final AtomicInteger changeSets = new AtomicInteger();
        final AtomicInteger changeSetsRestored = new AtomicInteger();
        /** The sizes of the change sets taken once every key had a count. */
        final List<Integer> changeSetSizes = Collections.synchronizedList(new ArrayList<>());

        @Override
        protected long[] svc(Long value) {
            long key = value / 2 % KEYS;
            long count = counts.merge(key, 1L, Long::sum);
            if (changed != null) {
                changed.add(key);
            }
            return new long[] {value, key * 1_000_000 + count};
        }

        @Override
        public void trackChanges() {
            changed = new HashSet<>();
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            writeEntries(counts.keySet(), out);
            wholeSnapshots.incrementAndGet();
            if (changed != null) {
                changed.clear();
            }
        }

        @Override
        public void snapshotChanges(long checkpointId, DataOutput out) throws IOException {
            writeEntries(changed, out);
            if (counts.size() == KEYS) {
                changeSetSizes.add(changed.size());
            }
            changeSets.incrementAndGet();
            changed.clear();
        }

        private void writeEntries(Set<Long> keys, DataOutput out) throws IOException {
            out.writeInt(keys.size());
            for (long key : keys) {
                out.writeLong(key);
                out.writeLong(counts.get(key));
            }
        }

        @Override
        public void restore(DataInput in) throws IOException {
            counts.clear();
            readEntries(in);
        }

        @Override
        public void restoreChanges(DataInput in) throws IOException {
            readEntries(in);
            changeSetsRestored.incrementAndGet();
        }

        private void readEntries(DataInput in) throws IOException {
            int n = in.readInt();
            for (int i = 0; i < n; i++) {
                counts.put(in.readLong(), in.readLong());
            }
        }
    }

    private static long highestId(CheckpointStore store) {
        try {
            return store.highestId();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Checkpoints every 5 ms; whole states once in {@code fullEvery}. */
    private static RunOptions incremental(CheckpointStore store, int fullEvery) {
        return RunOptions.defaults()
                .waitStrategy(WaitStrategy.BLOCKING)
                .queueCapacity(64)
                .checkpoints(Duration.ofMillis(5), store)
                .fullCheckpointEvery(fullEvery)
                .restartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(10)));
    }

    /** Every value once, and each key's counts 1, 2, ... with none missing and none twice. */
    private static void assertExactlyOnceWithCountsGoingOn(List<long[]> committed) {
        List<Long> values = new ArrayList<>();
        Map<Long, List<Long>> countsByKey = new TreeMap<>();
        for (long[] r : committed) {
            values.add(r[0]);
            countsByKey
                    .computeIfAbsent(r[1] / 1_000_000, k -> new ArrayList<>())
                    .add(r[1] % 1_000_000);
        }
        values.sort(null);
        assertThat(values).as("every value once").hasSize((int) ITEMS);
        for (int i = 0; i < values.size(); i++) {
            assertThat(values.get(i)).isEqualTo(i);
        }
        countsByKey.forEach((key, counts) -> {
            counts.sort(null);
            for (int i = 0; i < counts.size(); i++) {
                assertThat(counts.get(i)).as("count %d of key %d", i + 1, key).isEqualTo(i + 1);
            }
        });
    }

    /** Runs the job with a failure after checkpoint 6, restarted in the process. */
    private KeyedCounts runWithARestart(int fullEvery) {
        CheckpointStore store = CheckpointStore.directory(dir.resolve("every-" + fullEvery));
        AtomicInteger failures = new AtomicInteger();
        Supplier<Long> saved = () -> highestId(store);
        KeyedCounts counts = new KeyedCounts();
        TransactionalSink sink = new TransactionalSink();
        Pipeline pipeline =
                new Pipeline(new CountingSource(ITEMS, 200), new FailOnce(failures, saved, 6), counts, sink);
        pipeline.runAndWaitEnd(incremental(store, fullEvery));

        assertThat(failures).as("the failure was injected").hasValue(1);
        assertThat(pipeline.stats().checkpoints().orElseThrow().restarts()).isEqualTo(1);
        assertExactlyOnceWithCountsGoingOn(mapOutput(sink));
        return counts;
    }

    @Test
    void aRestartRebuildsTheStateFromTheWholeOneAndTheChangesAfterIt() {
        // Whole once in 1000: past the first checkpoint every one holds changes, so does the one restored.
        KeyedCounts counts = runWithARestart(1_000);

        assertThat(counts.changeSetsRestored)
                .as("the restored checkpoint held change sets")
                .hasValueGreaterThan(0);
        List<Integer> sizes = new ArrayList<>(counts.changeSetSizes);
        sizes.sort(null);
        assertThat(sizes).as("change sets taken once every key had a count").hasSizeGreaterThanOrEqualTo(3);
        assertThat(sizes.get(sizes.size() / 2))
                .as("a change set holds the keys changed in 5 ms, not all %d: median of %s", KEYS, sizes)
                .isLessThan((int) KEYS / 4);
    }

    @Test
    void aWholeStateComesOnceInEveryThreeCheckpoints() {
        KeyedCounts counts = runWithARestart(3);

        assertThat(counts.wholeSnapshots).hasValueGreaterThanOrEqualTo(2);
        assertThat(counts.changeSets.get())
                .as("two change sets per whole state, give or take the restart")
                .isBetween(counts.wholeSnapshots.get(), 2 * counts.wholeSnapshots.get());
    }

    /** The sink's values, but each result's second half as FailOnce doubled the value before. */
    private static List<long[]> mapOutput(TransactionalSink sink) {
        List<long[]> out = new ArrayList<>();
        for (long[] r : sink.committed()) {
            out.add(new long[] {r[0] / 2, r[1]});
        }
        return out;
    }

    @Test
    void aNewRunResumesFromAChainInTheStore() {
        CheckpointStore store = CheckpointStore.directory(dir);
        AtomicInteger failures = new AtomicInteger();
        Supplier<Long> saved = () -> highestId(store);
        TransactionalSink firstSink = new TransactionalSink();
        Pipeline first = new Pipeline(
                new CountingSource(ITEMS, 200), new FailOnce(failures, saved, 6), new KeyedCounts(), firstSink);
        assertThatThrownBy(() -> first.runAndWaitEnd(incremental(store, 1_000).restartStrategy(RestartStrategy.none())))
                .isInstanceOf(NodeFailedException.class);

        KeyedCounts counts = new KeyedCounts();
        TransactionalSink secondSink = new TransactionalSink();
        Pipeline second =
                new Pipeline(new CountingSource(ITEMS, 0), new FailOnce(failures, saved, 6), counts, secondSink);
        second.runAndWaitEnd(incremental(store, 1_000).resumeFromCheckpoint(true));

        assertThat(counts.changeSetsRestored)
                .as("the checkpoint resumed from held change sets")
                .hasValueGreaterThan(0);
        Map<Long, List<long[]>> byId = new TreeMap<>(firstSink.committedById);
        secondSink.committedById.forEach(byId::putIfAbsent);
        List<long[]> all = new ArrayList<>();
        byId.values().forEach(results -> results.forEach(r -> all.add(new long[] {r[0] / 2, r[1]})));
        assertExactlyOnceWithCountsGoingOn(all);
    }
}
