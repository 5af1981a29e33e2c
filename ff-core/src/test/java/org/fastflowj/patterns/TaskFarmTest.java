package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TaskFarmTest {

    @Test
    void shouldRunEveryTaskOnceBeforeWaitAllReturnsInEveryRound() {
        int n = 20_000;
        try (TaskFarm farm = new TaskFarm(3)) {
            for (int round = 1; round <= 3; round++) {
                AtomicIntegerArray runs = new AtomicIntegerArray(n);
                for (int i = 0; i < n; i++) {
                    int task = i;
                    farm.addTask(() -> runs.incrementAndGet(task));
                }
                farm.waitAll();
                for (int i = 0; i < n; i++) {
                    assertThat(runs.get(i))
                            .as("runs of task %d in round %d", i, round)
                            .isEqualTo(1);
                }
            }
        }
    }

    @Test
    void shouldRunTasksInParallel() {
        // each task waits for the other: they only finish if two workers run them at the same time
        CyclicBarrier both = new CyclicBarrier(2);
        AtomicInteger met = new AtomicInteger();
        try (TaskFarm farm = new TaskFarm(2)) {
            for (int i = 0; i < 2; i++) {
                farm.addTask(() -> {
                    try {
                        both.await(10, TimeUnit.SECONDS);
                        met.incrementAndGet();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
            farm.waitAll();
        }
        assertThat(met.get()).isEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(ints = {2048, 4})
    void shouldGiveTheOtherTasksToFreeWorkersWhileOneTaskIsLong(int queueCapacity) {
        // with 4 the carrier of the long task comes round again many times while it still runs
        int others = 1000;
        CountDownLatch othersRan = new CountDownLatch(others - 1);
        AtomicIntegerArray runs = new AtomicIntegerArray(others);
        AtomicReference<Boolean> longTaskSawThem = new AtomicReference<>();
        RunOptions options = TaskFarm.DEFAULT_RUN_OPTIONS.queueCapacity(queueCapacity);
        try (TaskFarm farm = new TaskFarm(2, options)) {
            farm.addTask(() -> {
                try { // at most one task can wait behind this one, in its worker's one slot
                    longTaskSawThem.set(othersRan.await(10, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            for (int i = 0; i < others; i++) {
                int task = i;
                farm.addTask(() -> {
                    runs.incrementAndGet(task);
                    othersRan.countDown();
                });
            }
            farm.waitAll();
        }
        assertThat(longTaskSawThem.get()).isTrue();
        for (int i = 0; i < others; i++) {
            assertThat(runs.get(i)).as("runs of task %d", i).isEqualTo(1);
        }
    }

    @Test
    void shouldReportTheLowestFailedTaskWithTheOthersSuppressedAndStayUsable() {
        AtomicInteger ran = new AtomicInteger();
        try (TaskFarm farm = new TaskFarm(2)) {
            for (int i = 0; i < 10; i++) {
                int task = i;
                farm.addTask(() -> {
                    ran.incrementAndGet();
                    if (task == 3 || task == 7) {
                        throw new IllegalArgumentException("bad " + task);
                    }
                });
            }
            assertThatThrownBy(farm::waitAll).isInstanceOfSatisfying(TaskFarmException.class, e -> {
                assertThat(e.taskIndex()).isEqualTo(3);
                assertThat(e.taskName()).isNull();
                assertThat(e).hasMessageContaining("task #3").hasMessageContaining("bad 3");
                assertThat(e.getCause()).isInstanceOf(IllegalArgumentException.class);
                assertThat(e.getSuppressed()).singleElement().satisfies(s -> assertThat(s)
                        .hasMessage("bad 7"));
            });
            assertThat(ran.get()).isEqualTo(10);

            farm.addTask(ran::incrementAndGet);
            farm.waitAll(); // a new round, numbered from 0 again, without the old failures
            assertThat(ran.get()).isEqualTo(11);
            farm.addTask("parser", () -> {
                throw new IllegalStateException("no input");
            });
            assertThatThrownBy(farm::waitAll).isInstanceOfSatisfying(TaskFarmException.class, e -> {
                assertThat(e.taskIndex()).isZero();
                assertThat(e.taskName()).isEqualTo("parser");
                assertThat(e).hasMessageContaining("task 'parser' (#0)");
            });
        }
    }

    @Test
    void shouldRefuseAnotherThreadDuringARoundAndLetItTakeTheNextRound() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        try (TaskFarm farm = new TaskFarm(2)) {
            farm.addTask(() -> {
                awaitQuietly(release);
                ran.incrementAndGet();
            });
            AtomicReference<Throwable> fromOther = new AtomicReference<>();
            Thread other = new Thread(() -> fromOther.set(catching(() -> farm.addTask(ran::incrementAndGet))), "other");
            other.start();
            other.join(10_000);
            assertThat(fromOther.get())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(
                            "from other while " + Thread.currentThread().getName() + "'s round");
            release.countDown();
            farm.waitAll();
            assertThat(ran.get()).isEqualTo(1);

            Thread next = new Thread(
                    () -> fromOther.set(catching(() -> {
                        farm.addTask(ran::incrementAndGet);
                        farm.waitAll();
                    })),
                    "next");
            next.start();
            next.join(10_000);
            assertThat(fromOther.get()).isNull();
            assertThat(ran.get()).isEqualTo(2);
        }
    }

    @Test
    void shouldRefuseATaskThatAddsTasksNamingTheAlternatives() {
        try (TaskFarm farm = new TaskFarm(2)) {
            AtomicReference<TaskFarm> self = new AtomicReference<>(farm);
            farm.addTask(() -> self.get().addTask(() -> {}));
            assertThatThrownBy(farm::waitAll)
                    .isInstanceOf(TaskFarmException.class)
                    .cause()
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("inside one of its own tasks")
                    .hasMessageContaining("MacroDataFlow");
            farm.addTask(() -> self.get().close());
            assertThatThrownBy(farm::waitAll).cause().hasMessage("TaskFarm.close() from inside one of its own tasks");
        }
    }

    @Test
    void shouldNotDeadlockWhenARoundHasManyMoreTasksThanTheInputChannelHolds() {
        AtomicInteger ran = new AtomicInteger();
        RunOptions small =
                RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING).queueCapacity(4);
        try (TaskFarm farm = new TaskFarm(2, small)) {
            for (int i = 0; i < 50_000; i++) {
                farm.addTask(ran::incrementAndGet);
            }
            farm.waitAll();
        }
        assertThat(ran.get()).isEqualTo(50_000);
    }

    @Test
    void shouldWaitForTheRoundOnCloseAndRefuseTasksAfterIt() {
        AtomicInteger ran = new AtomicInteger();
        TaskFarm farm = new TaskFarm(2);
        for (int i = 0; i < 1000; i++) {
            farm.addTask(ran::incrementAndGet);
        }
        farm.close();
        assertThat(ran.get()).isEqualTo(1000);
        farm.close(); // a second close does nothing
        assertThatThrownBy(() -> farm.addTask(() -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("after close()");
        farm.waitAll(); // nothing added: returns at once
    }

    @Test
    void shouldRethrowAnUnwaitedRoundsFailureFromCloseAndStillEndTheWorkers() {
        TaskFarm farm = new TaskFarm(1);
        farm.addTask(() -> {
            throw new IllegalStateException("late");
        });
        assertThatThrownBy(farm::close).isInstanceOf(TaskFarmException.class).hasRootCauseMessage("late");
        assertThatThrownBy(() -> farm.addTask(() -> {})).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldCancelTheFarmWhenTheWaitingCallerIsInterrupted() {
        CountDownLatch release = new CountDownLatch(1);
        TaskFarm farm = new TaskFarm(1);
        try {
            farm.addTask(() -> awaitQuietly(release));
            Thread.currentThread().interrupt();
            assertThatThrownBy(farm::waitAll)
                    .isInstanceOf(CancellationException.class)
                    .hasMessageContaining("interrupted");
            assertThat(Thread.interrupted())
                    .as("the interrupt is consumed by the cancellation")
                    .isFalse();
            assertThatThrownBy(() -> farm.addTask(() -> {})).isInstanceOf(RuntimeException.class);
        } finally {
            release.countDown();
            catching(farm::close);
        }
    }

    @Test
    void shouldRefuseNoWorkers() {
        assertThatThrownBy(() -> new TaskFarm(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TaskFarm(0)");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("not released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Throwable catching(Runnable call) {
        try {
            call.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
