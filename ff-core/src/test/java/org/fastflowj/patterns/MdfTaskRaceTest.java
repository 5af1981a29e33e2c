package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.patterns.MacroDataFlow.inout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The race at the heart of the successor path: the generator links a new task after two predecessors
 * while two other threads complete them. Whatever the interleaving, exactly one of the three owns the new
 * task (the generator because both were done, or the completion that brought its count to zero), and the
 * predecessors' writes are visible to it.
 */
class MdfTaskRaceTest {
    private static final int ROUNDS = 20_000;

    /** The round each thread may start; threads yield while they wait (two shared cores). */
    private volatile int round = -1;

    private volatile MdfTask first;
    private volatile MdfTask second;
    private volatile MdfTask successor;

    private final AtomicInteger arrived = new AtomicInteger();
    private final AtomicInteger owners = new AtomicInteger();
    private final AtomicReference<String> wrong = new AtomicReference<>();
    /** Written by each predecessor's completer before it completes; read by the successor's owner. */
    private final long[] written = new long[2];

    private static MdfTask task() {
        return new MdfTask(0, null, () -> {}, new MacroDataFlow.Param[] {inout(new Object())});
    }

    private void awaitRound(int r) {
        while (round != r) {
            Thread.yield();
        }
    }

    private void owned(int r) {
        owners.incrementAndGet();
        if (written[0] != r || written[1] != r) {
            wrong.compareAndSet(null, "round " + r + ": the owner saw " + written[0] + ", " + written[1]);
        }
    }

    private Thread completer(int which) {
        Thread t = new Thread(() -> {
            for (int r = 0; r < ROUNDS; r++) {
                awaitRound(r);
                MdfTask mine = which == 0 ? first : second;
                written[which] = r;
                MdfTask ready = mine.complete(task -> owned(-1)); // there is no second successor
                if (ready != null) {
                    owned(ready == successor ? roundOf() : -1);
                }
                arrived.incrementAndGet();
            }
        });
        t.setDaemon(true); // never outlives a failed test
        return t;
    }

    private int roundOf() {
        return round;
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldGiveEachNewTaskExactlyOneOwnerWhilePredecessorsCompleteConcurrently() throws Exception {
        Thread a = completer(0), b = completer(1);
        a.start();
        b.start();
        try {
            for (int r = 0; r < ROUNDS; r++) {
                first = task();
                second = task();
                MdfTask next = task();
                successor = next;
                owners.set(0);
                arrived.set(0);
                round = r; // the completers start: volatile, so they see the tasks above
                next.startRegistration();
                next.dependOn(first);
                next.dependOn(second);
                if (next.endRegistration()) {
                    owned(r);
                }
                while (arrived.get() < 2) {
                    Thread.yield();
                }
                assertThat(owners.get()).as("owners of round %d", r).isEqualTo(1);
            }
        } finally {
            round = ROUNDS; // releases the completers if the test failed early
            a.join(10_000);
            b.join(10_000);
        }
        assertThat(wrong.get()).isNull();
        assertThat(a.isAlive() || b.isAlive()).isFalse();
    }
}
