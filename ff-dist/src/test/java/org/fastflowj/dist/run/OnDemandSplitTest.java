package org.fastflowj.dist.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The paper's Fig. 10: a master hands tasks on demand to workers, two next to it (group LOCAL, with the
 * master: a horizontal inter-set cut) and two in another group. Fine tasks mostly stay local, where no
 * network stands between the master and the worker; coarse tasks spread to the remote workers too.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OnDemandSplitTest {
    static final class Master extends Node<Void, Long> {
        private final long tasks;
        private long next;

        Master(long tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Long svc(Void none) {
            return next < tasks ? Long.valueOf(next++) : eos();
        }

        @Override
        public String toString() {
            return "master";
        }
    }

    static final class Worker extends Node<Long, Void> {
        private final long grainNanos;
        private final AtomicLongArray done;
        private final int slot;

        Worker(long grainNanos, AtomicLongArray done, int slot) {
            this.grainNanos = grainNanos;
            this.done = done;
            this.slot = slot;
        }

        @Override
        protected Void svc(Long task) {
            long until = System.nanoTime() + grainNanos;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            done.incrementAndGet(slot);
            return goOn();
        }
    }

    /** Runs {@code tasks} tasks of {@code grainNanos}; returns the share the remote workers computed. */
    static double remoteShare(long tasks, long grainNanos) throws Exception {
        AtomicLongArray done = new AtomicLongArray(4);
        Node<Void, Long> master = new Master(tasks);
        Node<Long, Void>[] workers = new Worker[4];
        for (int i = 0; i < 4; i++) {
            workers[i] = new Worker(grainNanos, done, i);
        }
        AllToAll a2a = new AllToAll().firstSet(master).secondSet(workers).onDemand();
        a2a.createGroup("LOCAL").include(master).include(workers[0]).include(workers[1]);
        a2a.createGroup("REMOTE").include(workers[2]).include(workers[3]);

        LocalCluster.run(
                new Pipeline(a2a), LocalCluster.config(List.of("LOCAL", "REMOTE"), "\"internalMessageOTF\": 2"), 90);

        long local = done.get(0) + done.get(1);
        long remote = done.get(2) + done.get(3);
        assertThat(local + remote).isEqualTo(tasks);
        return (double) remote / tasks;
    }

    @Test
    void shouldKeepFineTasksLocalAndSpreadCoarseOnes() throws Exception {
        double fine = remoteShare(20_000, 1_000);
        double coarse = remoteShare(600, 2_000_000);
        System.out.printf("on-demand remote share: fine (1 us) %.2f, coarse (2 ms) %.2f%n", fine, coarse);
        assertThat(coarse).isGreaterThan(0.2).isGreaterThan(2 * fine);
    }
}
