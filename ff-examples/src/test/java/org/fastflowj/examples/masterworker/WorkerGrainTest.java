package org.fastflowj.examples.masterworker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A worker's grain is CPU time: with more workers than cores, each still burns its whole grain. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerGrainTest {
    private static final long GRAIN_NS = TimeUnit.MILLISECONDS.toNanos(40);

    @Test
    void shouldBurnTheGrainInCpuTimeEvenWhenWorkersOutnumberTheCores() throws InterruptedException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isCurrentThreadCpuTimeSupported(), "no per-thread CPU clock here");
        int workers = 2 * Runtime.getRuntime().availableProcessors();
        AtomicLongArray cpuNanos = new AtomicLongArray(workers);
        List<Thread> running = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            int index = w;
            Thread t = new Thread(() -> {
                Worker worker = new Worker(GRAIN_NS, false);
                long before = threads.getCurrentThreadCpuTime();
                worker.svc(new Task(index, new byte[0]));
                cpuNanos.set(index, threads.getCurrentThreadCpuTime() - before);
            });
            running.add(t);
            t.start();
        }
        for (Thread t : running) {
            t.join();
        }
        for (int w = 0; w < workers; w++) {
            assertThat(cpuNanos.get(w))
                    .as(
                            "CPU time worker %d burnt for a %d ms grain, %d workers on %d cores",
                            w, 40, workers, Runtime.getRuntime().availableProcessors())
                    .isGreaterThanOrEqualTo(GRAIN_NS);
        }
    }
}
