package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.Checkpointed;
import org.fastflowj.core.checkpoint.GroupCheckpoints;
import org.fastflowj.core.checkpoint.IncrementalCheckpointed;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.dist.CheckpointStart;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.SerializationConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints of a program in three groups, each on its own {@link GroupRun} in this JVM: the barriers
 * cross the groups, every group saves its part, and a run that failed resumes, in every group, from the
 * newest checkpoint complete in all of them, giving each result exactly once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CheckpointsAcrossGroupsTest {
    private static final long ITEMS = 20_000;
    private static final List<String> GROUPS = List.of("SRC", "MID", "OUT");

    @TempDir
    Path dir;

    /** 0 .. end-1, its next value in its snapshot; pauses now and then so the stream spans checkpoints. */
    static final class CountingSource extends Node<Void, Long> implements Checkpointed {
        private final long end;
        private long next;

        CountingSource(long end) {
            this.end = end;
        }

        @Override
        protected Long svc(Void input) throws InterruptedException {
            if (next == end) {
                return eos();
            }
            if (next % 200 == 0) {
                Thread.sleep(1);
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

    /** Numbers what it sees (state a restart must carry over); fails once when told to, after two checkpoints. */
    static class Numbering extends Node<Long, Long> implements Checkpointed {
        final AtomicBoolean failOnce = new AtomicBoolean();
        final AtomicLong completed = new AtomicLong();
        long seen;

        @Override
        protected Long svc(Long value) {
            if (failOnce.get()) {
                if (completed.get() < 2) {
                    LockSupport.parkNanos(200_000); // armed, the stream spans two checkpoints on a loaded machine too
                } else if (failOnce.compareAndSet(true, false)) {
                    throw new IllegalStateException("injected failure at " + value);
                }
            }
            return value * 1_000_000 + ++seen;
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            out.writeLong(seen);
        }

        @Override
        public void restore(DataInput in) throws IOException {
            seen = in.readLong();
        }

        @Override
        public void checkpointCompleted(long id) {
            completed.incrementAndGet();
        }
    }

    /**
     * Numbering whose change sets hold how many it numbered since its previous snapshot: a restore that
     * missed a link of the chain, or applied one twice, numbers wrong.
     */
    static final class NumberingByChanges extends Numbering implements IncrementalCheckpointed {
        final AtomicInteger changeSetsRestored = new AtomicInteger();
        private long atPrevious;

        @Override
        public void trackChanges() {
            atPrevious = seen;
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            super.snapshot(checkpointId, out);
            atPrevious = seen;
        }

        @Override
        public void snapshotChanges(long checkpointId, DataOutput out) throws IOException {
            out.writeLong(seen - atPrevious);
            atPrevious = seen;
        }

        @Override
        public void restoreChanges(DataInput in) throws IOException {
            seen += in.readLong();
            changeSetsRestored.incrementAndGet();
        }
    }

    /** Keeps what it took; a restore drops what came after the checkpoint, as a transactional sink. */
    static final class RollingBackSink extends Node<Long, Void> implements Checkpointed {
        final List<Long> taken = new ArrayList<>();

        @Override
        protected Void svc(Long value) {
            synchronized (taken) {
                taken.add(value);
            }
            return goOn();
        }

        @Override
        public void snapshot(long checkpointId, DataOutput out) throws IOException {
            synchronized (taken) {
                out.writeInt(taken.size());
            }
        }

        @Override
        public void restore(DataInput in) throws IOException {
            int size = in.readInt();
            synchronized (taken) {
                taken.subList(size, taken.size()).clear();
            }
        }

        List<Long> taken() {
            synchronized (taken) {
                return List.copyOf(taken);
            }
        }
    }

    private final CountingSource source = new CountingSource(ITEMS);
    private Numbering numbering = new Numbering();
    private final RollingBackSink sink = new RollingBackSink();
    private int fullCheckpointEvery = 1;

    private BuildingBlock program() {
        Pipeline program = new Pipeline(source, numbering, sink);
        source.createGroup("SRC");
        numbering.createGroup("MID");
        sink.createGroup("OUT");
        return program;
    }

    private RunOptions options() {
        return RunOptions.defaults()
                .checkpoints(Duration.ofMillis(20), CheckpointStore.directory(dir))
                .fullCheckpointEvery(fullCheckpointEvery);
    }

    private static List<Long> expected() {
        return LongStream.range(0, ITEMS)
                .map(v -> v * 1_000_000 + v + 1)
                .boxed()
                .toList();
    }

    @Test
    void shouldSaveEveryGroupsPartAndGiveTheResultsOnce() throws Exception {
        DffConfig config = LocalCluster.config(GROUPS, "\"batchSize\": 32");
        BuildingBlock program = program();

        Map<String, Throwable> failures = runGroups(program, config, CheckpointStart.UNKNOWN);

        assertThat(failures).isEmpty();
        assertThat(sink.taken()).isEqualTo(expected());
        GroupCheckpoints store = GroupCheckpoints.of(dir, 3, null, GROUPS);
        long newest = store.newestComplete();
        assertThat(newest).as("a checkpoint complete in every group").isPositive();
        for (String g : GROUPS) {
            assertThat(Files.exists(dir.resolve(g).resolve("end.ffcp")))
                    .as("group %s recorded its end", g)
                    .isTrue();
        }
        assertThat(numbering.completed.get())
                .as("checkpoints the middle group was told of")
                .isPositive();
    }

    @Test
    void shouldResumeEveryGroupFromTheNewestCompleteCheckpointAfterAFailure() throws Exception {
        DffConfig config = LocalCluster.config(GROUPS, "\"batchSize\": 32");
        BuildingBlock program = program();
        numbering.failOnce.set(true);

        Map<String, Throwable> failed = runGroups(program, config, CheckpointStart.UNKNOWN);

        assertThat(failed).as("every group fails with the middle one").containsKey("MID");
        assertThat(numbering.failOnce.get()).as("the failure was injected").isFalse();
        GroupCheckpoints store = GroupCheckpoints.of(dir, 3, null, GROUPS);
        long resumeFrom = store.newestComplete();
        long highest = store.highestId();
        assertThat(resumeFrom).isPositive();
        assertThat(sink.taken().size())
                .as("the sink took items past the checkpoint")
                .isLessThan((int) ITEMS);

        Map<String, Throwable> resumed = runGroups(program, config, new CheckpointStart(resumeFrom, highest));

        assertThat(resumed).isEmpty();
        assertThat(sink.taken()).isEqualTo(expected());
        assertThat(store.highestId())
                .as("the resumed run numbers its checkpoints after the failed one's")
                .isGreaterThan(highest);
    }

    @Test
    void shouldResumeTheMiddleGroupFromAChainOfChangeSets() throws Exception {
        NumberingByChanges byChanges = new NumberingByChanges();
        numbering = byChanges;
        fullCheckpointEvery = 1_000; // past the first, every checkpoint holds the middle group's changes
        DffConfig config = LocalCluster.config(GROUPS, "\"batchSize\": 32");
        BuildingBlock program = program();
        numbering.failOnce.set(true);

        assertThat(runGroups(program, config, CheckpointStart.UNKNOWN)).containsKey("MID");
        GroupCheckpoints store = GroupCheckpoints.of(dir, 3, null, GROUPS);
        long resumeFrom = store.newestComplete();
        assertThat(resumeFrom).isGreaterThanOrEqualTo(2);
        assertThat(GroupCheckpoints.of(dir, 3, "MID", GROUPS).partOf(resumeFrom).changesSince())
                .as("the middle group's part resumed from holds changes")
                .isNotEmpty();

        Map<String, Throwable> resumed = runGroups(program, config, new CheckpointStart(resumeFrom, store.highestId()));

        assertThat(resumed).isEmpty();
        assertThat(byChanges.changeSetsRestored).hasValueGreaterThan(0);
        assertThat(sink.taken()).isEqualTo(expected());
    }

    /** Every group on its own thread, its checkpoints starting at {@code start}; each group's failure. */
    private Map<String, Throwable> runGroups(BuildingBlock program, DffConfig config, CheckpointStart start)
            throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(GROUPS.size());
        Map<String, Future<?>> runs = new LinkedHashMap<>();
        List<Execution> executions = new ArrayList<>();
        try {
            for (String g : GROUPS) {
                DFF.Settings settings = new DFF.Settings(
                        g, config, SerializationConfig.builder().build(), false, false, false, start);
                runs.put(g, pool.submit(() -> {
                    Execution ex = GroupRun.start(GraphCompiler.compile(program), options(), settings);
                    synchronized (executions) {
                        executions.add(ex);
                    }
                    ex.await();
                    return null;
                }));
            }
            Map<String, Throwable> failures = new LinkedHashMap<>();
            for (Map.Entry<String, Future<?>> run : runs.entrySet()) {
                try {
                    run.getValue().get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    failures.put(run.getKey(), e.getCause());
                } catch (TimeoutException e) {
                    failures.put(run.getKey(), new AssertionError("group " + run.getKey() + " still runs after 60 s"));
                }
            }
            return failures;
        } finally {
            synchronized (executions) {
                executions.forEach(Execution::cancel);
            }
            pool.shutdownNow();
            pool.awaitTermination(15, TimeUnit.SECONDS);
        }
    }
}
