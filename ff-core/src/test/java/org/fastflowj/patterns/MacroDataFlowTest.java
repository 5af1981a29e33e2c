package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.fastflowj.patterns.MacroDataFlow.in;
import static org.fastflowj.patterns.MacroDataFlow.inout;
import static org.fastflowj.patterns.MacroDataFlow.out;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.NodeThreadStates;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(60)
class MacroDataFlowTest {

    /** A shared object of the random graphs: a value that each task folds its index into. */
    static final class Cell {
        long value;
    }

    /** One task of a random graph, replayable sequentially: reads some cells, writes others. */
    record RandomTask(int index, int[] cells, MacroDataFlow.Access[] accesses) {
        void apply(Cell[] all) {
            long read = 17;
            for (int p = 0; p < cells.length; p++) {
                if (accesses[p] != MacroDataFlow.Access.OUT) {
                    read = read * 31 + all[cells[p]].value;
                }
            }
            for (int p = 0; p < cells.length; p++) {
                if (accesses[p].writes()) {
                    all[cells[p]].value = read * 1_000_003 + index * 7L + p;
                }
            }
        }

        MacroDataFlow.Param[] params(Cell[] all) {
            MacroDataFlow.Param[] params = new MacroDataFlow.Param[cells.length];
            for (int p = 0; p < cells.length; p++) {
                params[p] = new MacroDataFlow.Param(all[cells[p]], accesses[p]);
            }
            return params;
        }
    }

    static List<RandomTask> randomGraph(long seed, int tasks, int cells) {
        Random random = new Random(seed);
        List<RandomTask> graph = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            int count = 1 + random.nextInt(4); // a cell may appear twice in one task: allowed
            int[] used = new int[count];
            MacroDataFlow.Access[] accesses = new MacroDataFlow.Access[count];
            for (int p = 0; p < count; p++) {
                used[p] = random.nextInt(cells);
                // reads half the time, so that some tasks are independent and run in parallel
                accesses[p] = random.nextBoolean()
                        ? MacroDataFlow.Access.IN
                        : random.nextBoolean() ? MacroDataFlow.Access.OUT : MacroDataFlow.Access.INOUT;
            }
            graph.add(new RandomTask(t, used, accesses));
        }
        return graph;
    }

    static Cell[] cells(int count) {
        Cell[] cells = new Cell[count];
        for (int c = 0; c < count; c++) {
            cells[c] = new Cell();
            cells[c].value = c;
        }
        return cells;
    }

    @ParameterizedTest // not BUSY_SPIN: five spinning threads on two cores make each hand-over wait for a time slice
    @EnumSource(names = {"BACKOFF", "BLOCKING"})
    void shouldRespectEveryReadAfterWriteWriteAfterReadAndWriteAfterWriteOfRandomGraphs(WaitStrategy strategy) {
        int tasks = 3000, cellCount = 24;
        for (long seed = 1; seed <= 3; seed++) {
            List<RandomTask> graph = randomGraph(seed, tasks, cellCount);
            Cell[] parallel = cells(cellCount);
            long[] start = new long[tasks], end = new long[tasks];
            AtomicLong clock = new AtomicLong();

            try (MacroDataFlow mdf =
                    new MacroDataFlow(3, 64, RunOptions.defaults().waitStrategy(strategy))) {
                mdf.run(g -> {
                    for (RandomTask task : graph) {
                        g.add(
                                () -> {
                                    start[task.index()] = clock.incrementAndGet();
                                    task.apply(parallel);
                                    end[task.index()] = clock.incrementAndGet();
                                },
                                task.params(parallel));
                    }
                });
            }

            assertOrderRespected(graph, cellCount, start, end);
            Cell[] sequential = cells(cellCount);
            graph.forEach(task -> task.apply(sequential));
            for (int c = 0; c < cellCount; c++) {
                assertThat(parallel[c].value).as("cell %d, seed %d", c, seed).isEqualTo(sequential[c].value);
            }
        }
    }

    /** For every object, a task that conflicts with an earlier one (one of them writes) started after it ended. */
    static void assertOrderRespected(List<RandomTask> graph, int cellCount, long[] start, long[] end) {
        for (int c = 0; c < cellCount; c++) {
            List<int[]> uses = new ArrayList<>(); // {task, writes}
            for (RandomTask task : graph) {
                boolean touches = false, writes = false;
                for (int p = 0; p < task.cells().length; p++) {
                    if (task.cells()[p] == c) {
                        touches = true;
                        writes |= task.accesses()[p].writes();
                    }
                }
                if (touches) {
                    uses.add(new int[] {task.index(), writes ? 1 : 0});
                }
            }
            for (int i = 0; i < uses.size(); i++) {
                for (int j = i + 1; j < uses.size(); j++) {
                    int earlier = uses.get(i)[0], later = uses.get(j)[0];
                    if (uses.get(i)[1] == 1 || uses.get(j)[1] == 1) {
                        assertThat(end[earlier])
                                .as("task %d ended before task %d started (cell %d)", earlier, later, c)
                                .isLessThan(start[later]);
                    }
                }
            }
        }
    }

    @Test
    void shouldRunReadersOfOneVersionBetweenItsWriterAndTheNextWriter() {
        Object x = new Object();
        AtomicLong clock = new AtomicLong();
        long[] start = new long[4], end = new long[4];
        try (MacroDataFlow mdf = new MacroDataFlow(3)) {
            mdf.run(g -> {
                for (int t = 0; t < 4; t++) {
                    int index = t;
                    Runnable body = () -> {
                        start[index] = clock.incrementAndGet();
                        end[index] = clock.incrementAndGet();
                    };
                    g.add(body, t == 0 ? out(x) : t == 3 ? inout(x) : in(x));
                }
            });
        }
        assertThat(end[0]).isLessThan(start[1]).isLessThan(start[2]); // read after write
        assertThat(end[1]).isLessThan(start[3]); // write after read
        assertThat(end[2]).isLessThan(start[3]);
    }

    @Test
    void shouldRunIndependentTasksInParallel() {
        CountDownLatch both = new CountDownLatch(2);
        Set<String> metTheOther = ConcurrentHashMap.newKeySet();
        Object a = new Object(), b = new Object(), shared = new Object();
        try (MacroDataFlow mdf = new MacroDataFlow(2)) {
            mdf.run(g -> {
                for (String name : List.of("first", "second")) {
                    g.add(
                            name,
                            () -> {
                                both.countDown();
                                try {
                                    if (both.await(20, TimeUnit.SECONDS)) { // only if the other runs at the same time
                                        metTheOther.add(name);
                                    }
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            },
                            in(shared),
                            out(name.equals("first") ? a : b)); // two readers of one object: independent
                }
            });
        }
        assertThat(metTheOther).containsExactlyInAnyOrder("first", "second");
    }

    @Test
    void shouldMultiplyBlockedMatricesBitExactlyAsTheSequentialBlockedProduct() {
        int n = 48, bs = 8;
        double[][][] a = BlockedMatrices.random(n, bs, 1), b = BlockedMatrices.random(n, bs, 2);
        double[][][] c = BlockedMatrices.zeros(n, bs);
        // tag::matmul[]
        int nb = n / bs; // blocks per side; a[i*nb+k] is block (i, k) of A, each block its own double[]
        try (MacroDataFlow mdf = new MacroDataFlow(2)) {
            mdf.run(g -> {
                for (int i = 0; i < nb; i++) {
                    for (int j = 0; j < nb; j++) {
                        for (int k = 0; k < nb; k++) {
                            double[] aik = a[i][k], bkj = b[k][j], cij = c[i][j];
                            // tasks on the same C block run in k order; different C blocks in parallel
                            g.add(() -> BlockedMatrices.gemm(aik, bkj, cij, bs), in(aik), in(bkj), inout(cij));
                        }
                    }
                }
            });
        }
        // end::matmul[]
        double[][][] expected = BlockedMatrices.zeros(n, bs);
        BlockedMatrices.sequentialProduct(a, b, expected, bs);
        for (int i = 0; i < nb; i++) {
            for (int j = 0; j < nb; j++) {
                assertThat(c[i][j]).as("block (%d, %d)", i, j).isEqualTo(expected[i][j]);
            }
        }
    }

    @Test
    void shouldHoldTheGeneratorBackAtTheOutstandingBound() {
        int bound = 32, tasks = 200_000;
        AtomicInteger live = new AtomicInteger();
        AtomicInteger maxLive = new AtomicInteger();
        long[] total = new long[1];
        try (MacroDataFlow mdf = new MacroDataFlow(2, bound)) {
            mdf.run(g -> {
                for (int t = 0; t < tasks; t++) {
                    long[] own = {t};
                    maxLive.accumulateAndGet(live.incrementAndGet(), Math::max); // counted before it is added
                    g.add(
                            () -> {
                                own[0] *= 2;
                                live.decrementAndGet();
                            },
                            inout(own),
                            in(total));
                }
                g.add(() -> total[0] = -1, out(total)); // after every reader of total
            });
        }
        assertThat(maxLive.get()).isBetween(2, bound + 1); // the one being added is counted too
        assertThat(live).hasValue(0);
        assertThat(total[0]).isEqualTo(-1);
    }

    @Test
    void shouldFailTheRunNamingTheTaskThatThrewAndDropTheTasksAfterIt() {
        Object x = new Object();
        AtomicInteger ranAfter = new AtomicInteger();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        try (MacroDataFlow mdf = new MacroDataFlow(2)) {
            MacroDataFlowException failure = catchThrowableOfType(
                    MacroDataFlowException.class,
                    () -> mdf.run(g -> {
                        g.add(() -> threads.add(Thread.currentThread()), out(x));
                        g.add(
                                "parse header",
                                () -> {
                                    throw new IllegalArgumentException("bad header");
                                },
                                inout(x));
                        for (int t = 0; t < 100; t++) {
                            g.add(ranAfter::incrementAndGet, in(x)); // each waits for the failing task
                        }
                    }));

            assertThat(failure).hasMessageContaining("MacroDataFlow: task 'parse header' (#1) failed");
            assertThat(failure.taskName()).isEqualTo("parse header");
            assertThat(failure.taskIndex()).isEqualTo(1);
            assertThat(failure.getCause())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("bad header");
            assertThat(ranAfter).hasValue(0);
            assertThat(threads).isNotEmpty().noneMatch(NodeThreadStates::runsANode);

            MacroDataFlowException unnamed = catchThrowableOfType(
                    MacroDataFlowException.class,
                    () -> mdf.run(g -> {
                        g.add(() -> {}, out(x));
                        g.add(
                                () -> {
                                    throw new IllegalStateException("third");
                                },
                                in(x));
                    }));
            assertThat(unnamed).hasMessageContaining("MacroDataFlow: task #1 failed");
            assertThat(unnamed.taskName()).isNull();
        }
    }

    @Test
    void shouldFailTheRunWhenTheGeneratorThrows() {
        try (MacroDataFlow mdf = new MacroDataFlow(2)) {
            MacroDataFlowException failure = catchThrowableOfType(
                    MacroDataFlowException.class,
                    () -> mdf.run(g -> {
                        g.add(() -> {}, out(new Object()));
                        throw new IOException("input missing");
                    }));

            assertThat(failure).hasMessageContaining("MacroDataFlow: the generator failed");
            assertThat(failure.taskIndex()).isEqualTo(-1);
            assertThat(failure.getCause()).isInstanceOf(IOException.class).hasMessage("input missing");
        }
    }

    @Test
    void shouldRunAgainAfterASuccessAndAFailureAndRefuseAfterClose() {
        long[] counter = new long[1];
        MacroDataFlow mdf = new MacroDataFlow(2, 8);
        for (int round = 0; round < 3; round++) {
            mdf.run(g -> {
                for (int t = 0; t < 1000; t++) {
                    g.add(() -> counter[0]++, inout(counter));
                }
            });
            catchThrowableOfType(
                    MacroDataFlowException.class,
                    () -> mdf.run(g -> g.add(() -> {
                        throw new IllegalStateException();
                    })));
        }
        mdf.run(g -> {}); // no task at all
        mdf.close();

        assertThat(counter[0]).isEqualTo(3000);
        assertThatThrownBy(() -> mdf.run(g -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("MacroDataFlow: run after close");
    }

    @Test
    void shouldRejectAddOutsideTheGeneratorAndNullParameters() {
        MacroDataFlow.TaskGraph[] escaped = new MacroDataFlow.TaskGraph[1];
        try (MacroDataFlow mdf = new MacroDataFlow(1)) {
            mdf.run(g -> escaped[0] = g);
        }
        assertThatThrownBy(() -> escaped[0].add(() -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("MacroDataFlow: add outside of its run's generator");
        assertThatThrownBy(() -> in(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("MacroDataFlow: IN(null): a parameter must be an object");
        assertThatThrownBy(() -> new MacroDataFlow(2, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("MacroDataFlow: outstandingTasks must be >= 1, got 0");
    }

    @Test
    void shouldFailATaskThatAddsTasks() {
        try (MacroDataFlow mdf = new MacroDataFlow(2)) {
            MacroDataFlowException failure = catchThrowableOfType(
                    MacroDataFlowException.class, () -> mdf.run(g -> g.add("nested", () -> g.add(() -> {}))));

            assertThat(failure.taskName()).isEqualTo("nested");
            assertThat(failure.getCause())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("add tasks from the generator's thread only");
        }
    }

    /** FastFlow's tests/test_mdf.cpp: eight tasks over four arrays, the last a reduction, as the sequential code. */
    @Test
    void shouldComputeFastFlowsTestMdfAsTheSequentialCode() {
        int size = 1 << 14;
        long[][] parallel = testMdfArrays(size), sequential = testMdfArrays(size);
        long[] res = new long[1];
        try (MacroDataFlow mdf = new MacroDataFlow(3, 16)) {
            long[] a = parallel[0], b = parallel[1], c = parallel[2], d = parallel[3];
            mdf.run(g -> {
                g.add(() -> sum2(a, b), in(a), in(b), out(a));
                g.add(() -> sum2(c, b), in(c), in(b), out(c));
                g.add(() -> sum2(d, b), in(d), in(b), out(d));
                g.add(() -> sum3(d, a, c), in(a), in(c), in(d), out(d));
                g.add(() -> sum2(a, d), in(a), in(d), out(a));
                g.add(() -> sum2(b, d), in(b), in(d), out(b));
                g.add(() -> sum2(c, d), in(c), in(d), out(c));
                g.add(() -> res[0] = reduce(a, b, c, d), in(a), in(b), in(c), in(d), out(res));
            });
        }
        long[] a = sequential[0], b = sequential[1], c = sequential[2], d = sequential[3];
        sum2(a, b);
        sum2(c, b);
        sum2(d, b);
        sum3(d, a, c);
        sum2(a, d);
        sum2(b, d);
        sum2(c, d);
        assertThat(res[0]).isEqualTo(reduce(a, b, c, d));
    }

    static long[][] testMdfArrays(int size) {
        long[][] arrays = new long[4][size];
        for (int i = 0; i < size; i++) {
            arrays[0][i] = 0;
            arrays[1][i] = i;
            arrays[2][i] = 1;
            arrays[3][i] = i + 1;
        }
        return arrays;
    }

    static void sum2(long[] x, long[] y) {
        for (int i = 0; i < x.length; i++) {
            x[i] += y[i];
        }
    }

    static void sum3(long[] x, long[] y, long[] z) {
        for (int i = 0; i < x.length; i++) {
            x[i] += y[i] + z[i];
        }
    }

    static long reduce(long[] x, long[] y, long[] z, long[] k) {
        long sum = 0;
        for (int i = 0; i < x.length; i++) {
            sum += x[i] + y[i] + z[i] + k[i];
        }
        return sum;
    }
}
