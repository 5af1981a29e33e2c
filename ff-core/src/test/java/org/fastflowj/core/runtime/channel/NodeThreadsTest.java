package org.fastflowj.core.runtime.channel;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.fastflowj.core.NodeThreadStates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class NodeThreadsTest {
    @Test
    void aRunnerRunsUnderItsNameAndItsThreadGoesIdleUnderTheIdleName() throws Exception {
        AtomicReference<String> nameInside = new AtomicReference<>();
        AtomicReference<Thread> thread = new AtomicReference<>();
        NodeThreads.Run run = NodeThreads.start(
                () -> {
                    nameInside.set(Thread.currentThread().getName());
                    thread.set(Thread.currentThread());
                },
                "ff-test-node");
        run.join(10_000);

        assertThat(run.isAlive()).isFalse();
        assertThat(nameInside).hasValue("ff-test-node");
        assertThat(run.thread()).isSameAs(thread.get());
        assertThat(thread.get().isDaemon()).isTrue();
        assertThat(NodeThreads.IDLE_NAME).isEqualTo(NodeThreadStates.IDLE_NAME);
        assertThat(!thread.get().isAlive() || thread.get().getName().equals(NodeThreads.IDLE_NAME))
                .as("ended, or idle under the idle name")
                .isTrue();
    }

    @Test
    void theNextRunnerReusesAnIdleThread() throws Exception {
        Thread first = runAndTakeThread(() -> {});
        awaitIdle(first);
        Thread second = runAndTakeThread(() -> {});

        assertThat(second).as("the idle thread took the next runner").isSameAs(first);
    }

    @Test
    void anInterruptForAnEndedRunNeverReachesTheNextRunnerOnTheSameThread() throws Exception {
        AtomicReference<Thread> firstThread = new AtomicReference<>();
        NodeThreads.Run first = NodeThreads.start(() -> firstThread.set(Thread.currentThread()), "ff-first");
        first.join(10_000);
        awaitIdle(firstThread.get());

        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch checked = new CountDownLatch(1);
        CountDownLatch reported = new CountDownLatch(1);
        AtomicBoolean interruptedByTheOldRun = new AtomicBoolean(true);
        AtomicBoolean interruptedByItsOwnRun = new AtomicBoolean();
        NodeThreads.Run second = NodeThreads.start(
                () -> {
                    running.countDown();
                    try {
                        checked.await();
                        interruptedByTheOldRun.set(Thread.currentThread().isInterrupted());
                        reported.countDown();
                        Thread.sleep(20_000);
                    } catch (InterruptedException e) {
                        interruptedByItsOwnRun.set(true);
                    }
                },
                "ff-second");
        assertThat(second.thread()).isSameAs(firstThread.get());
        running.await();
        first.interrupt(); // the cancellation of a run that ended: must not reach the second runner
        checked.countDown();
        reported.await();
        second.interrupt();
        second.join(10_000);

        assertThat(interruptedByTheOldRun).as("interrupted by the ended run").isFalse();
        assertThat(interruptedByItsOwnRun).as("interrupted by its own run").isTrue();
    }

    @Test
    void eachRunnerGetsItsStartersContextClassLoader() throws Exception {
        Thread idle = runAndTakeThread(() -> {});
        awaitIdle(idle);
        ClassLoader mine = new URLClassLoader(new URL[0], getClass().getClassLoader());
        AtomicReference<ClassLoader> seen = new AtomicReference<>();
        Thread starter = new Thread(() -> {
            NodeThreads.Run run =
                    NodeThreads.start(() -> seen.set(Thread.currentThread().getContextClassLoader()), "ff-loader");
            try {
                run.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        starter.setContextClassLoader(mine);
        starter.start();
        starter.join(10_000);

        assertThat(seen).hasValue(mine);
        assertThat(idle.getContextClassLoader()).as("not kept once idle").isNull();
    }

    @Test
    void whatARunnerChangedOfItsThreadIsNotTheNextRunnersConcern() throws Exception {
        Thread first = runAndTakeThread(() -> Thread.currentThread().setPriority(Thread.MAX_PRIORITY));
        awaitIdle(first);
        AtomicReference<Integer> priority = new AtomicReference<>();
        Thread second =
                runAndTakeThread(() -> priority.set(Thread.currentThread().getPriority()));

        assertThat(second).isSameAs(first);
        assertThat(priority).hasValue(Thread.NORM_PRIORITY);
    }

    @Test
    void aThreadItsRunnerPinnedIsNotReused() throws Exception {
        Thread pinned = runAndTakeThread(NodeThreads::doNotReuseCurrentThread);
        pinned.join(10_000);

        assertThat(pinned.isAlive()).as("a pinned thread exits with its runner").isFalse();
    }

    @Test
    void anIdleThreadHoldsNothingOfItsLastRunner() throws Exception {
        AtomicReference<Thread> thread = new AtomicReference<>();
        WeakReference<Object> captured = runHoldingAnObject(thread);
        awaitIdle(thread.get());
        for (int attempt = 0; attempt < 50 && captured.get() != null; attempt++) {
            System.gc();
            Thread.sleep(10);
        }

        assertThat(captured.get())
                .as("the runner's object, once its thread is idle")
                .isNull();
    }

    private static WeakReference<Object> runHoldingAnObject(AtomicReference<Thread> thread)
            throws InterruptedException {
        Object payload = new Object();
        NodeThreads.Run run = NodeThreads.start(
                () -> {
                    thread.set(Thread.currentThread());
                    assertThat(payload).isNotNull();
                },
                "ff-holding");
        run.join(10_000);
        return new WeakReference<>(payload);
    }

    private static Thread runAndTakeThread(Runnable body) throws InterruptedException {
        AtomicReference<Thread> thread = new AtomicReference<>();
        NodeThreads.Run run = NodeThreads.start(
                () -> {
                    thread.set(Thread.currentThread());
                    body.run();
                },
                "ff-taken");
        run.join(10_000);
        assertThat(run.isAlive()).isFalse();
        return thread.get();
    }

    /** Waits until {@code t} waits for a next runner (its run ended before it went idle). */
    private static void awaitIdle(Thread t) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (t.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertThat(t.getState()).as("idle").isEqualTo(Thread.State.TIMED_WAITING);
    }
}
