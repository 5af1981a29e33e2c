package org.fastflowj.examples.masterworker;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.Node;

/**
 * An R-Worker: burns the grain in CPU time, then answers with its own index (to the master, by feedback).
 *
 * <p>CPU time, not the wall clock (FastFlow's {@code ticks_wait} spins on the clock): a worker the kernel
 * takes off its core still owes its grain, so with more workers than cores (groups on one machine) the
 * speed-up counts the cores that ran the work, as it does on separate hosts.
 *
 * <p>Or it sleeps the grain (FastFlow's tests' {@code usleep}): its speed is then its own whatever the
 * cores, which a test of how tasks are shared by speed needs on a machine with fewer cores than workers
 * (burning workers share the cores as the operating system's scheduler decides).
 */
final class Worker extends Node<Task, Integer> {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean CPU_CLOCK = THREADS.isCurrentThreadCpuTimeSupported();
    /** Steps between two reads of the clock: a few microseconds of work, so reading it costs little. */
    private static final int STEPS_PER_READ = 2048;

    private final long grainNs;
    private final boolean sleeps;

    Worker(long grainNs, boolean sleeps) {
        this.grainNs = grainNs;
        this.sleeps = sleeps;
    }

    @Override
    protected Integer svc(Task task) {
        if (sleeps) {
            long until = System.nanoTime() + grainNs;
            for (long left = grainNs; left > 0; left = until - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
            return id();
        }
        long until = now() + grainNs;
        long spins = task.id();
        do {
            for (int i = 0; i < STEPS_PER_READ; i++) {
                spins = spins * 6364136223846793005L + 1442695040888963407L; // work the JIT cannot drop
            }
        } while (now() < until);
        return spins == 42 ? id() : id(); // keeps spins alive
    }

    private static long now() {
        return CPU_CLOCK ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }
}
