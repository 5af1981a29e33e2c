package org.fastflowj.core.fastflow.masterworker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_stopstartthreads.cpp: a master-worker farm, on demand with two slots per
 * worker. The master sends every WORK task, then a WAIT task to each worker but the first two, which makes
 * them block in {@code svc} until the master opens a gate. Workers 0 and 1 must bring every WORK task back
 * meanwhile. Then a broadcast WAIT blocks every worker, the master opens the gate, and the farm ends.
 *
 * <p>The C++ master sleeps two seconds before each step and prints who sleeps; here it waits, with a
 * deadline, until the expected number of workers is blocked, and the test checks those numbers.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BlockedWorkersMasterWorkerTest {
    private static final int WORKERS = 4;
    private static final int TASKS = 1000;
    private static final long DEADLINE_SECONDS = 20;

    enum Op {
        WAIT,
        WORK
    }

    record Task(Op op, int iter) {}

    /** What the C++ test does with a mutex, a condition and a flag: closed until the master opens it. */
    static final class Gate {
        private final CountDownLatch opened = new CountDownLatch(1);
        final AtomicInteger blockedNow = new AtomicInteger();

        void await() throws InterruptedException {
            blockedNow.incrementAndGet();
            try {
                if (!opened.await(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the gate stayed closed for " + DEADLINE_SECONDS + " s");
                }
            } finally {
                blockedNow.decrementAndGet();
            }
        }

        void open() {
            opened.countDown();
        }
    }

    static final class Worker extends Node<Task, Task> {
        private final Gate gate;
        int work;
        int waits;

        Worker(Gate gate) {
            this.gate = gate;
        }

        @Override
        protected Task svc(Task task) throws InterruptedException {
            if (task.op() == Op.WAIT) {
                waits++;
                gate.await();
                return goOn();
            }
            work++;
            return task;
        }
    }

    static final class Master extends MultiOutputNode<Task, Task> {
        private final Gate gate;
        private int back;
        int blockedWhileOthersWorked = -1;
        int blockedAfterBroadcast = -1;

        Master(Gate gate) {
            this.gate = gate;
        }

        @Override
        protected Task svc(Task task) throws InterruptedException {
            if (task == null) { // the loop's start
                for (int i = 0; i < TASKS; i++) {
                    sendOut(new Task(Op.WORK, i));
                }
                for (int w = 2; w < WORKERS; w++) {
                    sendOutTo(new Task(Op.WAIT, 0), w);
                }
                return goOn();
            }
            if (++back < TASKS) {
                return goOn();
            }
            // Every WORK task is back: the workers given a WAIT are blocked, or about to be.
            blockedWhileOthersWorked = awaitBlocked(WORKERS - 2);
            broadcast(new Task(Op.WAIT, 0));
            blockedAfterBroadcast = awaitBlocked(WORKERS);
            gate.open();
            return eos();
        }

        private int awaitBlocked(int expected) throws InterruptedException {
            return waitFor(gate.blockedNow::get, expected);
        }
    }

    /** Polls until {@code count} reaches {@code expected} or the deadline passes; returns the last count. */
    static int waitFor(IntSupplier count, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        int now;
        while ((now = count.getAsInt()) != expected && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        return now;
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldBringEveryTaskBackWhileSomeWorkersAreBlocked(WaitStrategy strategy) {
        Gate gate = new Gate();
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < WORKERS; i++) {
            workers.add(new Worker(gate));
        }
        Master master = new Master(gate);

        Farm.of(workers)
                .emitter(master)
                .onDemand(2)
                .wrapAround()
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        assertThat(master.blockedWhileOthersWorked).isEqualTo(WORKERS - 2);
        assertThat(master.blockedAfterBroadcast).isEqualTo(WORKERS);
        assertThat(workers.stream().mapToInt(w -> w.work).sum()).isEqualTo(TASKS);
        // Workers 0 and 1 got no WAIT before the broadcast; the others got one before and one after it.
        assertThat(workers).extracting(w -> w.waits).containsExactly(1, 1, 2, 2);
        assertThat(gate.blockedNow).hasValue(0);
    }
}
