package org.fastflowj.core.fastflow.accelerator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.Accelerator;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_farm.cpp: a search offloads tasks to a farm accelerator, stops offloading when a polled result matches, then ends the input and drains every outstanding result. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FarmAcceleratorSearchTest {

    /** fftask_t: the numerator r, the divisor i; the worker replaces r by r / i. */
    record Task(long r, long i) {}

    /** Func of the C++: waits (r / i) % 1000 microseconds, then divides. */
    static final class Divide extends Node<Task, Task> {
        @Override
        protected Task svc(Task t) {
            long q = t.r() / t.i();
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(q % 1000));
            return new Task(q, t.i());
        }
    }

    @Test
    void shouldFindTheTargetAndStillDrainEveryOffloadedTask() {
        int maxTasks = 2000;
        Random random = new Random(131071); // srandom(131071)
        long[] numerators = new long[maxTasks];
        for (int k = 0; k < maxTasks; k++) {
            numerators[k] = random.nextInt(Integer.MAX_VALUE);
        }
        int targetIndex = 300; // the C++ looks for 111, which it never finds;
        long number = numerators[targetIndex] / (targetIndex + 1); // here the target is reachable

        Accelerator<Task, Task> acc =
                Accelerator.start(Farm.of(3, Divide::new), RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING));
        List<Task> results = new ArrayList<>();
        Task found = null;
        int offloaded = 0;
        do {
            acc.offload(new Task(numerators[offloaded], offloaded + 1));
            offloaded++;
            Task r = acc.pollResult();
            if (r != null) {
                results.add(r);
                if (r.r() == number) {
                    found = r;
                    break; // stop offloading, as the C++ breaks out
                }
            }
        } while (offloaded < maxTasks);
        acc.endInput();
        for (Task r; (r = acc.loadResult()) != null; ) { // "found ... after all iterations" if not yet
            results.add(r);
            if (found == null && r.r() == number) {
                found = r;
            }
        }
        acc.waitEnd();

        assertThat(found).isNotNull();
        assertThat(found.i()).isEqualTo(targetIndex + 1);
        assertThat(offloaded).isGreaterThan(targetIndex);
        assertThat(results).hasSize(offloaded);
        assertThat(results.stream().map(Task::i).distinct().count()).isEqualTo(offloaded);
        assertThat(results).allSatisfy(t -> assertThat(t.r()).isEqualTo(numerators[(int) t.i() - 1] / t.i()));
    }
}
