package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.fastflowj.patterns.MacroDataFlow.in;
import static org.fastflowj.patterns.MacroDataFlow.inout;
import static org.fastflowj.patterns.MacroDataFlow.out;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.fastflowj.patterns.MacroDataFlowTest.Cell;
import org.fastflowj.patterns.MacroDataFlowTest.RandomTask;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The successor path of {@link MacroDataFlow}: a worker that completes a task releases its successors'
 * counts and runs one that became ready itself. Every result is checked against the same tasks run
 * sequentially, in the order they were added.
 */
class MacroDataFlowSuccessorTest {

    /** Folds {@code index} into a running value: any change of order changes the result. */
    static long fold(long value, long index) {
        return value * 1_000_003 + index + 1;
    }

    /** Records the successors completions release, in order: the one returned, then the others. */
    static final class Released implements MdfTask.ReadySink {
        final List<MdfTask> tasks = new ArrayList<>();

        void complete(MdfTask task) {
            int at = tasks.size();
            MdfTask first = task.complete(this);
            if (first != null) {
                tasks.add(at, first);
            } else {
                assertThat(tasks).as("others without a first").hasSize(at);
            }
        }

        @Override
        public void ready(MdfTask task) {
            tasks.add(task);
        }
    }

    private static long taskIndex;

    private static MdfTask task(MacroDataFlow.Param... params) {
        return new MdfTask(taskIndex++, null, () -> {}, params);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void shouldCountEachTasksPredecessorsAndReleaseItOnlyWhenTheLastIsDone() {
        Object x = new Object(), y = new Object();
        DataDependencies dependencies = new DataDependencies(16);
        MdfTask writer = task(out(x));
        MdfTask reader1 = task(in(x));
        MdfTask reader2 = task(in(x), in(y));
        MdfTask rewriter = task(inout(x)); // after both readers (write-after-read)
        MdfTask yWriter = task(out(y)); // after reader2 only
        MdfTask last = task(in(x), in(y)); // after rewriter and yWriter

        assertThat(dependencies.register(writer)).isTrue();
        assertThat(dependencies.register(reader1)).isFalse();
        assertThat(dependencies.register(reader2)).isFalse();
        assertThat(dependencies.register(rewriter)).isFalse();
        assertThat(dependencies.register(yWriter)).isFalse();
        assertThat(dependencies.register(last)).isFalse();

        Released released = new Released();
        released.complete(writer);
        assertThat(released.tasks).containsExactly(reader1, reader2); // first successor first
        released.tasks.clear();
        released.complete(reader2);
        assertThat(released.tasks).containsExactly(yWriter); // rewriter still waits for reader1
        released.tasks.clear();
        released.complete(reader1);
        assertThat(released.tasks).containsExactly(rewriter);
        released.tasks.clear();
        released.complete(yWriter);
        assertThat(released.tasks).isEmpty(); // last still waits for rewriter
        released.complete(rewriter);
        assertThat(released.tasks).containsExactly(last);

        MdfTask afterAll = task(inout(x), inout(y));
        released.complete(last);
        assertThat(dependencies.register(afterAll))
                .as("every earlier task is done")
                .isTrue();
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void shouldForgetObjectsWhoseTasksAreDoneSoMemoryFollowsTheOutstandingTasks() {
        DataDependencies dependencies = new DataDependencies(16);
        Released released = new Released();
        for (int t = 0; t < 100_000; t++) {
            MdfTask task = task(out(new long[1]));
            assertThat(dependencies.register(task)).isTrue();
            released.complete(task);
            assertThat(dependencies.trackedObjects()).isLessThanOrEqualTo(2048);
        }
        assertThat(released.tasks).isEmpty();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRunManyChainsEachInOrder() {
        int chains = 64, links = 500;
        long[][] parallel = new long[chains][1], sequential = new long[chains][1];
        try (MacroDataFlow mdf = new MacroDataFlow(2)) {
            mdf.run(g -> {
                for (int c = 0; c < chains; c++) {
                    for (int l = 0; l < links; l++) {
                        long[] value = parallel[c];
                        long index = l;
                        g.add(() -> value[0] = fold(value[0], index), inout(value));
                    }
                }
            });
        }
        for (int c = 0; c < chains; c++) {
            for (int l = 0; l < links; l++) {
                sequential[c][0] = fold(sequential[c][0], l);
            }
            assertThat(parallel[c][0]).as("chain %d", c).isEqualTo(sequential[c][0]);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRunEachReadySuccessorOnTheWorkerThatReleasedItUpToTheChainLimit() throws Exception {
        int links = 3 * MdfWorker.CHAIN_LIMIT;
        Thread[] ranOn = new Thread[links];
        CountDownLatch allAdded = new CountDownLatch(1);
        long[] value = {0};
        try (MacroDataFlow mdf = new MacroDataFlow(2, 4 * links)) {
            mdf.run(g -> {
                for (int l = 0; l < links; l++) {
                    int index = l;
                    g.add(
                            () -> {
                                if (index == 0) { // every later link is then a successor when it is released
                                    await(allAdded);
                                }
                                ranOn[index] = Thread.currentThread();
                                value[0] = fold(value[0], index);
                            },
                            inout(value));
                }
                allAdded.countDown();
            });
        }
        for (int segment = 0; segment < links; segment += MdfWorker.CHAIN_LIMIT) {
            for (int l = segment; l < segment + MdfWorker.CHAIN_LIMIT; l++) {
                assertThat(ranOn[l]).as("link %d", l).isSameAs(ranOn[segment]);
            }
        }
        long expected = 0;
        for (int l = 0; l < links; l++) {
            expected = fold(expected, l);
        }
        assertThat(value[0]).isEqualTo(expected);
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRunALongChainPastTheLimitOfSuccessorsRunInARow() {
        int links = 20 * MdfWorker.CHAIN_LIMIT + 7;
        long[] value = {0}, expected = {0};
        AtomicInteger running = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        try (MacroDataFlow mdf = new MacroDataFlow(3, 16)) {
            mdf.run(g -> {
                for (int l = 0; l < links; l++) {
                    long index = l;
                    g.add(
                            () -> {
                                if (running.incrementAndGet() != 1) {
                                    overlaps.incrementAndGet();
                                }
                                value[0] = fold(value[0], index);
                                running.decrementAndGet();
                            },
                            inout(value));
                }
            });
        }
        for (int l = 0; l < links; l++) {
            expected[0] = fold(expected[0], l);
        }
        assertThat(overlaps).hasValue(0);
        assertThat(value[0]).isEqualTo(expected[0]);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRunDiamondsAfterDiamonds() {
        int diamonds = 3000;
        long[] parallel = diamondChain(diamonds, true);
        long[] sequential = diamondChain(diamonds, false);
        assertThat(parallel).containsExactly(sequential);
    }

    /**
     * top: w -> x; left: x -> y; right: x -> z; bottom: y, z -> w; the next diamond's top reads the
     * bottom's w. Run as tasks of a MacroDataFlow, or in order on this thread.
     */
    private static long[] diamondChain(int diamonds, boolean parallel) {
        long[] w = {1}, x = {0}, y = {0}, z = {0};
        List<Runnable> tasks = new ArrayList<>();
        List<MacroDataFlow.Param[]> params = new ArrayList<>();
        for (int d = 0; d < diamonds; d++) {
            long index = d;
            tasks.add(() -> x[0] = fold(w[0], index));
            params.add(new MacroDataFlow.Param[] {in(w), out(x)});
            tasks.add(() -> y[0] = fold(x[0], 2 * index));
            params.add(new MacroDataFlow.Param[] {in(x), out(y)});
            tasks.add(() -> z[0] = fold(x[0], 3 * index));
            params.add(new MacroDataFlow.Param[] {in(x), out(z)});
            tasks.add(() -> w[0] = fold(y[0], z[0]));
            params.add(new MacroDataFlow.Param[] {in(y), in(z), out(w)});
        }
        if (parallel) {
            try (MacroDataFlow mdf = new MacroDataFlow(2)) {
                mdf.run(g -> {
                    for (int t = 0; t < tasks.size(); t++) {
                        g.add(tasks.get(t), params.get(t));
                    }
                });
            }
        } else {
            tasks.forEach(Runnable::run);
        }
        return new long[] {w[0], x[0], y[0], z[0]};
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldFanOutToManyReadersThenFanInAndOverwriteOnlyAfterEveryReader() {
        int readers = 5000;
        long[] source = {0};
        long[][] seen = new long[readers][1];
        long[] total = {0};
        try (MacroDataFlow mdf = new MacroDataFlow(2, 8192)) {
            mdf.run(g -> {
                g.add(() -> source[0] = 42, out(source));
                for (int r = 0; r < readers; r++) {
                    long[] mine = seen[r];
                    long index = r;
                    g.add(() -> mine[0] = fold(source[0], index), in(source), out(mine));
                }
                // write-after-read: waits for every reader of 42
                g.add(() -> source[0] = -1, out(source));
                // fan-in: one task after every reader's result
                MacroDataFlow.Param[] all = new MacroDataFlow.Param[readers + 1];
                for (int r = 0; r < readers; r++) {
                    all[r] = in(seen[r]);
                }
                all[readers] = out(total);
                g.add(
                        () -> {
                            long sum = 0;
                            for (long[] s : seen) {
                                sum += s[0];
                            }
                            total[0] = sum;
                        },
                        all);
            });
        }
        long expectedTotal = 0;
        for (int r = 0; r < readers; r++) {
            assertThat(seen[r][0]).as("reader %d", r).isEqualTo(fold(42, r));
            expectedTotal += fold(42, r);
        }
        assertThat(total[0]).isEqualTo(expectedTotal);
        assertThat(source[0]).isEqualTo(-1);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldFailTheRunNamingTheSuccessorThatThrew() {
        long[] value = {0};
        AtomicInteger ranAfter = new AtomicInteger();
        int failAt = 300;
        try (MacroDataFlow mdf = new MacroDataFlow(2)) {
            MacroDataFlowException failure = catchThrowableOfType(
                    MacroDataFlowException.class,
                    () -> mdf.run(g -> {
                        for (int l = 0; l < 1000; l++) {
                            long index = l;
                            g.add(
                                    "link " + l,
                                    () -> {
                                        if (index == failAt) {
                                            throw new IllegalStateException("broken link");
                                        }
                                        if (index > failAt) {
                                            ranAfter.incrementAndGet();
                                        }
                                        value[0] = fold(value[0], index);
                                    },
                                    inout(value));
                        }
                    }));

            assertThat(failure).hasMessageContaining("MacroDataFlow: task 'link 300' (#300) failed");
            assertThat(failure.taskIndex()).isEqualTo(failAt);
            assertThat(failure.taskName()).isEqualTo("link " + failAt);
            assertThat(failure.getCause())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("broken link");
            assertThat(ranAfter).hasValue(0);
            long expected = 0;
            for (int l = 0; l < failAt; l++) {
                expected = fold(expected, l);
            }
            assertThat(value[0]).isEqualTo(expected);

            mdf.run(g -> g.add(() -> value[0] = 7, out(value))); // usable again
            assertThat(value[0]).isEqualTo(7);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldKeepTheOutstandingBoundWhenSuccessorsRunOnTheWorkers() {
        int bound = 24, chains = 40, links = 2000;
        AtomicInteger live = new AtomicInteger();
        AtomicInteger maxLive = new AtomicInteger();
        long[][] values = new long[chains][1];
        try (MacroDataFlow mdf = new MacroDataFlow(3, bound)) {
            mdf.run(g -> {
                for (int l = 0; l < links; l++) {
                    for (int c = 0; c < chains; c++) { // interleaved, so most tasks wait for a predecessor
                        long[] value = values[c];
                        long index = l;
                        maxLive.accumulateAndGet(live.incrementAndGet(), Math::max); // counted before it is added
                        g.add(
                                () -> {
                                    value[0] = fold(value[0], index);
                                    live.decrementAndGet();
                                },
                                inout(value));
                    }
                }
            });
        }
        assertThat(maxLive.get()).isBetween(2, bound + 1); // the one being added is counted too
        assertThat(live).hasValue(0);
        long expected = 0;
        for (int l = 0; l < links; l++) {
            expected = fold(expected, l);
        }
        for (long[] value : values) {
            assertThat(value[0]).isEqualTo(expected);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldComputeRandomGraphsAsTheSequentialCodeWithMoreWorkersThanCores() {
        int tasks = 20_000, cellCount = 40;
        for (long seed = 11; seed <= 13; seed++) {
            List<RandomTask> graph = MacroDataFlowTest.randomGraph(seed, tasks, cellCount);
            Cell[] parallel = MacroDataFlowTest.cells(cellCount);
            try (MacroDataFlow mdf = new MacroDataFlow(4, 32)) {
                mdf.run(g -> {
                    for (RandomTask task : graph) {
                        g.add(() -> task.apply(parallel), task.params(parallel));
                    }
                });
            }
            Cell[] sequential = MacroDataFlowTest.cells(cellCount);
            graph.forEach(task -> task.apply(sequential));
            for (int c = 0; c < cellCount; c++) {
                assertThat(parallel[c].value).as("cell %d, seed %d", c, seed).isEqualTo(sequential[c].value);
            }
        }
    }
}
