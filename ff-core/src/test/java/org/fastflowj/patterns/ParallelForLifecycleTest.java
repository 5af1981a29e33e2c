package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.ref.WeakReference;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.NodeThreadStates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Failures, nesting, many calls, several callers, idle workers and close. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParallelForLifecycleTest {

    @Test
    void shouldFailTheCallWithTheBodysExceptionAndStayUsable() {
        try (ParallelFor pf = new ParallelFor(2)) {
            for (long grain : new long[] {0, 1, 16}) {
                IllegalStateException boom = new IllegalStateException("boom");
                assertThatThrownBy(() -> pf.parallelFor(0, 1000, 1, grain, i -> {
                            if (i == 500) {
                                throw boom;
                            }
                        }))
                        .isInstanceOf(ParallelForException.class)
                        .hasCause(boom)
                        .hasMessageContaining("index 500")
                        .hasMessageContaining("worker");
                assertThat(pf.reduceLong(0, 1000, 1, grain, 0L, (acc, i) -> acc + i, Long::sum))
                        .isEqualTo(499_500);
            }
            assertThatThrownBy(() -> pf.parallelForIdx(0, 10, 1, 0, (s, e, t) -> {
                        throw new AssertionError("chunk failed");
                    }))
                    .isInstanceOf(ParallelForException.class)
                    .hasCauseInstanceOf(AssertionError.class)
                    .hasMessageContaining("chunk from index");
            assertThat(pf.reduceDouble(0, 4, 1, 1, 0.0, (acc, i) -> acc + i, Double::sum))
                    .isEqualTo(6.0);
        }
    }

    @Test
    void shouldFailTheCallWhenTheIdentitySupplierThrows() {
        try (ParallelFor pf = new ParallelFor(2)) {
            assertThatThrownBy(() -> pf.reduce(
                            0,
                            100,
                            1,
                            0,
                            () -> {
                                throw new IllegalStateException("no identity");
                            },
                            (acc, i) -> acc,
                            (p, q) -> p))
                    .isInstanceOf(ParallelForException.class)
                    .hasMessageContaining("identity supplier")
                    .hasRootCauseMessage("no identity");
            assertThat(pf.reduceLong(0, 100, 1, 0, 0L, (acc, i) -> acc + 1, Long::sum))
                    .isEqualTo(100);
        }
    }

    @Test
    void shouldFinishTheCallOfAnInterruptedCallerAndKeepItsInterrupt() throws Exception {
        try (ParallelFor pf = new ParallelFor(2)) {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicLong sum = new AtomicLong();
            AtomicLong interruptedAfter = new AtomicLong();
            Thread caller = new Thread(() -> {
                sum.set(pf.reduceLong(
                        0,
                        100,
                        1,
                        1,
                        0L,
                        (acc, i) -> {
                            if (i == 0) {
                                started.countDown();
                                await(release);
                            }
                            return acc + i;
                        },
                        Long::sum));
                interruptedAfter.set(Thread.currentThread().isInterrupted() ? 1 : 0);
            });
            caller.start();
            assertThat(started.await(20, TimeUnit.SECONDS)).isTrue();
            caller.interrupt(); // the workers still run the body: the call must not return early
            release.countDown();
            caller.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(caller.isAlive()).isFalse();
            assertThat(sum.get()).isEqualTo(4950);
            assertThat(interruptedAfter.get()).as("interrupt flag kept").isEqualTo(1);
        }
    }

    @Test
    void shouldStopHandingOutChunksAfterAFailure() {
        try (ParallelFor pf = new ParallelFor(2)) {
            AtomicLong ran = new AtomicLong();
            assertThatThrownBy(() -> pf.parallelFor(0, 1_000_000, 1, 1, i -> {
                        ran.incrementAndGet();
                        throw new IllegalArgumentException("bad index " + i);
                    }))
                    .hasCauseInstanceOf(IllegalArgumentException.class);
            assertThat(ran.get()).isLessThan(1000); // each worker fails its first chunk and claims no more
        }
    }

    @Test
    void shouldRunANestedLoopInlineInsteadOfDeadlocking() {
        try (ParallelFor pf = new ParallelFor(2)) {
            long total = pf.reduceLong(
                    0,
                    20,
                    1,
                    1,
                    0L,
                    (acc, i) -> acc + pf.reduceLong(0, i, 1, 0, 0L, (a, j) -> a + j, Long::sum),
                    Long::sum);
            long expected = 0;
            for (long i = 0; i < 20; i++) {
                expected += i * (i - 1) / 2;
            }
            assertThat(total).isEqualTo(expected);
            assertThatThrownBy(() -> pf.parallelFor(
                            0,
                            4,
                            i -> pf.parallelFor(0, 2, j -> {
                                throw new UnsupportedOperationException("inner");
                            })))
                    .isInstanceOf(ParallelForException.class)
                    .hasRootCauseInstanceOf(UnsupportedOperationException.class);
        }
    }

    @Test
    void shouldRunAThousandSmallCallsInARow() {
        try (ParallelFor pf = new ParallelFor(2)) {
            for (int call = 0; call < 1000; call++) {
                int n = call % 7;
                long grain = call % 3 - 1;
                assertThat(pf.reduceLong(0, n, 1, grain, 0L, (acc, i) -> acc + i, Long::sum))
                        .as("call %d", call)
                        .isEqualTo((long) n * (n - 1) / 2);
            }
            long threadsAfter = Thread.getAllStackTraces().keySet().stream()
                    .filter(Thread::isAlive)
                    .count();
            assertThat(threadsAfter).as("no thread per call").isLessThan(200);
        }
    }

    @Test
    void shouldKeepNoReferenceToAFinishedCall() throws Exception {
        try (ParallelFor pf = new ParallelFor(2)) {
            WeakReference<Object> ref = reduceWithCapturedObject(pf);
            for (int attempt = 0; attempt < 50 && ref.get() != null; attempt++) {
                System.gc();
                Thread.sleep(10);
            }
            assertThat(ref.get())
                    .as("the body, its partials and its result were dropped")
                    .isNull();
        }
    }

    /** A reduction whose body, partials and result all hold one object; returns a weak reference to it. */
    private static WeakReference<Object> reduceWithCapturedObject(ParallelFor pf) {
        Object captured = new Object();
        Set<Object> results = pf.reduce(
                0,
                10,
                1,
                1,
                HashSet::new,
                (set, i) -> {
                    set.add(captured);
                    return set;
                },
                (p, q) -> {
                    p.addAll(q);
                    return p;
                });
        assertThat(results).containsExactly(captured);
        return new WeakReference<>(captured);
    }

    @Test
    void shouldWorkWithMoreWorkersThanCores() {
        int workers = 4 * Runtime.getRuntime().availableProcessors() + 1;
        try (ParallelFor pf = new ParallelFor(workers)) {
            AtomicIntegerArray seen = new AtomicIntegerArray(10_000);
            pf.parallelFor(0, 10_000, 1, 5, i -> seen.incrementAndGet((int) i));
            for (int i = 0; i < seen.length(); i++) {
                assertThat(seen.get(i)).as("index %d", i).isEqualTo(1);
            }
            Set<Integer> threads = ConcurrentHashMap.newKeySet();
            pf.parallelForIdx(0, workers, 1, 0, (s, e, t) -> threads.add(t));
            assertThat(threads).hasSize(workers);
        }
    }

    @Test
    void shouldHandDynamicChunksToWhicheverWorkerIsFree() throws Exception {
        try (ParallelFor pf = new ParallelFor(2)) {
            CountDownLatch othersDone = new CountDownLatch(99);
            Set<Integer> stuckThread = ConcurrentHashMap.newKeySet();
            // index 0 holds its worker until the 99 other indices ran: only the other worker can run them
            pf.parallelForIdx(0, 100, 1, 1, (start, end, thread) -> {
                if (start == 0) {
                    stuckThread.add(thread);
                    await(othersDone);
                } else {
                    assertThat(stuckThread).doesNotContain(thread);
                    othersDone.countDown();
                }
            });
            assertThat(othersDone.getCount()).isZero();
        }
    }

    @Test
    void shouldLetSeveralThreadsCallAtOnce() throws Exception {
        try (ParallelFor pf = new ParallelFor(2)) {
            Thread[] callers = new Thread[4];
            AtomicLong wrong = new AtomicLong();
            for (int c = 0; c < callers.length; c++) {
                callers[c] = new Thread(() -> {
                    for (int k = 0; k < 200; k++) {
                        if (pf.reduceLong(0, 1000, 1, k % 2 * 10, 0L, (acc, i) -> acc + i, Long::sum) != 499_500) {
                            wrong.incrementAndGet();
                        }
                    }
                });
                callers[c].start();
            }
            for (Thread caller : callers) {
                caller.join(TimeUnit.SECONDS.toMillis(30));
                assertThat(caller.isAlive()).isFalse();
            }
            assertThat(wrong.get()).isZero();
        }
    }

    @Test
    void shouldCostNoCpuBetweenCalls() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        try (ParallelFor pf = new ParallelFor(2)) {
            Set<Thread> workers = ConcurrentHashMap.newKeySet();
            pf.parallelForIdx(0, 2, 1, 0, (s, e, t) -> workers.add(Thread.currentThread()));
            assertThat(workers).hasSize(2);
            awaitParked(workers); // the spin before a worker parks is not idle CPU
            long before = workers.stream()
                    .mapToLong(t -> mx.getThreadCpuTime(t.getId()))
                    .sum();
            long idleNanos = TimeUnit.MILLISECONDS.toNanos(500);
            // The idle period under test: the workers must not burn CPU while nobody calls.
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(idleNanos));
            long used = workers.stream()
                            .mapToLong(t -> mx.getThreadCpuTime(t.getId()))
                            .sum()
                    - before;
            assertThat(used).as("worker CPU while idle, ns").isLessThan(idleNanos / 20);
        }
    }

    /** Waits until every one of {@code threads} but the caller is parked (at most 10 s). */
    private static void awaitParked(Set<Thread> threads) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (Thread t : threads) {
            while (t != Thread.currentThread()
                    && t.getState() != Thread.State.WAITING
                    && t.getState() != Thread.State.TIMED_WAITING) {
                assertThat(System.nanoTime() - deadline)
                        .as(t.getName() + " parked in time, " + t.getState())
                        .isNegative();
                Thread.sleep(1); // polling a condition with a deadline
            }
        }
    }

    @Test
    void shouldEndEveryWorkerOnCloseAndRefuseLaterCalls() throws Exception {
        ParallelFor pf = new ParallelFor(3);
        Set<Thread> workers = ConcurrentHashMap.newKeySet();
        pf.parallelForIdx(0, 3, 1, 0, (s, e, t) -> workers.add(Thread.currentThread()));
        assertThatThrownBy(() -> pf.parallelFor(0, 3, i -> pf.close()))
                .hasRootCauseInstanceOf(IllegalStateException.class)
                .hasRootCauseMessage("ParallelFor.close() from inside one of its own loop bodies");
        pf.close();
        pf.close(); // a second close does nothing
        for (Thread worker : workers) {
            assertThat(NodeThreadStates.awaitNoNode(worker, TimeUnit.SECONDS.toMillis(10)))
                    .as(worker.getName())
                    .isTrue();
        }
        assertThatThrownBy(() -> pf.parallelFor(0, 10, i -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void shouldRejectBadArgumentsNamingThem() {
        assertThatThrownBy(() -> new ParallelFor(0)).hasMessageContaining("ParallelFor(0)");
        try (ParallelFor pf = new ParallelFor(1)) {
            assertThatThrownBy(() -> pf.parallelFor(0, 10, 0, 0, i -> {}))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("step 0 from 0 to 10");
            assertThatThrownBy(() -> pf.parallelFor(Long.MIN_VALUE, Long.MAX_VALUE, 1, 0, i -> {}))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("more than Long.MAX_VALUE iterations");
            assertThat(pf.reduceLong(0, 3, 1, 0, 0L, (a, i) -> a + i, Long::sum))
                    .isEqualTo(3);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(20, TimeUnit.SECONDS))
                    .as("the other worker ran the rest")
                    .isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
