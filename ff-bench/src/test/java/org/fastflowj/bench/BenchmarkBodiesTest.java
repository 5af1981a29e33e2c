package org.fastflowj.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.fastflowj.bench.queue.SpmcHandOff;
import org.fastflowj.bench.queue.SpscHandOff;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.patterns.TaskFarm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The benchmark bodies on tiny inputs: each variant must do all the work it claims to measure (otherwise
 * a ratio compares unequal things). No timing is asserted; JMH itself never runs here.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BenchmarkBodiesTest {
    private static final int ITEMS = 20_000;

    @ParameterizedTest
    @EnumSource(WaitStrategy.class)
    void shouldDeliverEveryItemThroughThePipeline(WaitStrategy strategy) {
        RunOptions options = RunOptions.defaults().waitStrategy(strategy).queueCapacity(PipelineThroughput.CAPACITY);

        assertThat(PipelineThroughput.runPipeline(options, ITEMS)).isEqualTo(ITEMS);
    }

    @ParameterizedTest
    @EnumSource(WaitStrategy.class)
    void shouldDeliverEveryItemOfASendOutLoop(WaitStrategy strategy) {
        RunOptions options = RunOptions.defaults().waitStrategy(strategy).queueCapacity(PipelineThroughput.CAPACITY);

        assertThat(PipelineThroughput.runSendOutLoop(options, ITEMS)).isEqualTo(ITEMS);
    }

    @Test
    void shouldSumEveryItemOfRunStartsFarmAndAgreeWithItsThreadBaselines() throws InterruptedException {
        long expected = 0;
        for (int k = 0; k < RunStart.THREADS; k++) {
            expected += RunStart.body(k);
        }

        assertThat(RunStart.runFarm()).isEqualTo((long) RunStart.ITEMS * (RunStart.ITEMS - 1) / 2);
        assertThat(new RunStart().freshThreads()).isEqualTo(expected);
    }

    @Test
    void shouldDeliverEveryItemThroughTheRawQueue() throws InterruptedException {
        assertThat(PipelineThroughput.runRaw(16, ITEMS)).isEqualTo(ITEMS);
    }

    @Test
    void shouldDeliverEveryItemThroughTheArrayBlockingQueue() throws InterruptedException {
        assertThat(PipelineThroughput.runArrayBlockingQueue(16, ITEMS)).isEqualTo(ITEMS);
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldDeliverEveryItemThroughTheDisruptor(WaitStrategy strategy) throws InterruptedException {
        assertThat(DisruptorHandOff.run(strategy, 16, ITEMS)).isEqualTo(ITEMS);
    }

    @Test
    void shouldComputeTheSameChecksumOnTheForkJoinPoolAsAParallelStreamAndThroughATaskFarm() throws Exception {
        FarmSpeedup.Work work = new FarmSpeedup.Work();
        work.prepare(0.5, 50, 5_000);
        FarmSpeedup.ForkJoinPoolState forkJoin = new FarmSpeedup.ForkJoinPoolState();
        forkJoin.setUp();
        try {
            long sequential = FarmSpeedup.runSequential(work);

            assertThat(FarmSpeedup.runExecutor(work, forkJoin.pool)).isEqualTo(sequential);
            assertThat(FarmSpeedup.runParallelStream(work)).isEqualTo(sequential);
            try (TaskFarm tasks = new TaskFarm(FarmSpeedup.WORKERS)) {
                assertThat(FarmSpeedup.runTaskFarm(work, tasks)).isEqualTo(sequential);
                assertThat(FarmSpeedup.runTaskFarm(work, tasks))
                        .as("a second round")
                        .isEqualTo(sequential);
            }
        } finally {
            forkJoin.tearDown();
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"jctoolsUnsafe", "jctoolsAtomic", "varHandle", "jctoolsUnsafeUnbounded", "jctoolsAtomicUnbounded"
            })
    void shouldHandEveryItemOverThroughEachQueueOneByOneAndInBatches(String kind) throws InterruptedException {
        QueueHandOff.QueueState state = new QueueHandOff.QueueState();
        state.queue = kind;

        assertThat(QueueHandOff.handOff(state.newQueue(), ITEMS, false)).isEqualTo(ITEMS);
        assertThat(QueueHandOff.handOff(state.newQueue(), ITEMS, true)).isEqualTo(ITEMS);
    }

    @Test
    void shouldCallTheSinkStageForEveryItemOfTheRawQueueWithSvcCalls() throws InterruptedException {
        assertThat(PipelineThroughput.runRawWithSvcCalls(16, ITEMS)).isEqualTo(ITEMS);
    }

    @ParameterizedTest
    @EnumSource(FarmSpeedup.Policy.class)
    void shouldComputeTheSameChecksumInFarmExecutorSplitAndSequentialLoop(FarmSpeedup.Policy policy) throws Exception {
        FarmSpeedup.Work work = new FarmSpeedup.Work();
        work.prepare(1, 50, 5_000);
        ExecutorService pool = Executors.newFixedThreadPool(FarmSpeedup.WORKERS);
        try {
            long sequential = FarmSpeedup.runSequential(work);

            assertThat(FarmSpeedup.runFarm(work, policy, RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING)))
                    .isEqualTo(sequential);
            assertThat(FarmSpeedup.runFarm(work, policy, RunOptions.defaults())).isEqualTo(sequential);
            assertThat(FarmSpeedup.runExecutor(work, pool)).isEqualTo(sequential);
            assertThat(FarmSpeedup.runSplit(work)).isEqualTo(sequential);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldComputeTheSequentialChecksumOnTheRawFarmWithMoreTasksThanItsQueuesHold() throws Exception {
        FarmSpeedup.Work work = new FarmSpeedup.Work();
        work.prepare(1, 50, 5 * SpscHandOff.CAPACITY + 3); // odd: the workers' shares differ by one
        ExecutorService pool = Executors.newFixedThreadPool(1 + FarmSpeedup.WORKERS);
        try {
            long sequential = FarmSpeedup.runSequential(work);

            for (int invocation = 0; invocation < 3; invocation++) {
                assertThat(FarmSpeedup.runRawFarm(work, pool)).isEqualTo(sequential);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldReportAFailingRawFarmTaskInsteadOfWaitingForItsItems() {
        FarmSpeedup.Work work = new FarmSpeedup.Work();
        work.prepare(1, 50, 4 * SpscHandOff.CAPACITY);
        work.tasks[3 * SpscHandOff.CAPACITY] = null; // the emitter fails on it (a queue takes no null) mid-stream
        ExecutorService pool = Executors.newFixedThreadPool(1 + FarmSpeedup.WORKERS);
        try {
            assertThatThrownBy(() -> FarmSpeedup.runRawFarm(work, pool))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(NullPointerException.class);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldComputeTheSequentialChecksumOnTheRawOnDemandFarmWithMoreTasksThanItsQueuesHold() throws Exception {
        FarmSpeedup.Work work = new FarmSpeedup.Work();
        work.prepare(1, 50, 5 * SpmcHandOff.CAPACITY + 3);
        ExecutorService pool = Executors.newFixedThreadPool(1 + FarmSpeedup.WORKERS);
        try {
            long sequential = FarmSpeedup.runSequential(work);

            for (int invocation = 0; invocation < 3; invocation++) {
                assertThat(FarmSpeedup.runRawOnDemandFarm(work, pool)).isEqualTo(sequential);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldReportAFailingRawOnDemandFarmTaskInsteadOfWaitingForItsItems() {
        FarmSpeedup.Work work = new FarmSpeedup.Work();
        work.prepare(1, 50, 4 * SpmcHandOff.CAPACITY);
        work.tasks[3 * SpmcHandOff.CAPACITY] = null; // the emitter fails on it (a queue takes no null) mid-stream
        ExecutorService pool = Executors.newFixedThreadPool(1 + FarmSpeedup.WORKERS);
        try {
            assertThatThrownBy(() -> FarmSpeedup.runRawOnDemandFarm(work, pool))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(NullPointerException.class);
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldComputeTheSequentialChecksumOnTheKeptAcceleratorInvocationAfterInvocation(WaitStrategy strategy) {
        for (FarmSpeedup.Policy policy : List.of(FarmSpeedup.Policy.ROUND_ROBIN, FarmSpeedup.Policy.ON_DEMAND)) {
            FarmSpeedup.Work work = new FarmSpeedup.Work();
            work.prepare(1, 50, 20_000); // more tasks than the input channel holds: offloading waits for room
            FarmSpeedup.KeptFarm farm = new FarmSpeedup.KeptFarm();
            farm.start(work, policy, RunOptions.defaults().waitStrategy(strategy));
            try {
                long sequential = FarmSpeedup.runSequential(work);

                for (int invocation = 0; invocation < 3; invocation++) {
                    assertThat(FarmSpeedup.runAccelerator(farm))
                            .as("%s, invocation %d", policy, invocation)
                            .isEqualTo(sequential);
                    assertThat(farm.accelerator.pollResult())
                            .as("no result left over")
                            .isNull();
                }
            } finally {
                farm.tearDown();
            }
            assertThat(farm.accelerator.isFinished())
                    .as("the trial's end stops the farm")
                    .isTrue();
        }
    }

    @Test
    void shouldGiveDifferentResultsForDifferentSeedsSoTheWorkCannotBeShared() {
        assertThat(BusyWork.spin(100, 1)).isNotEqualTo(BusyWork.spin(100, 2));
        assertThat(BusyWork.spin(100, 1)).isNotEqualTo(BusyWork.spin(101, 1));
    }

    @Test
    void shouldCalibrateToAPositiveRate() {
        assertThat(BusyWork.iterationsFor(1)).isPositive();
        assertThat(BusyWork.iterationsFor(10)).isGreaterThan(BusyWork.iterationsFor(1));
    }
}
