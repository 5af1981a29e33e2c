package org.fastflowj.patterns.fastflow.parallelfor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.patterns.ParallelFor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_parfor.cpp and tests/test_parfor_unbalanced.cpp: loops whose
 * iterations cost very different amounts (a bump in the middle; a power law) run with dynamic chunks on
 * one pattern reused by an outer sequential loop; every iteration runs once and all the work is done.
 * The costs are counted, not slept.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UnbalancedParallelForTest {

    @Test
    void shouldRunEveryIterationOfTheBumpOnceInChunksOf100() {
        int size = 500;
        long[] cost = new long[size];
        java.util.Arrays.fill(cost, 1000);
        for (int j = 0, i = size / 2 - size / 4; i < size / 2; ++i, ++j) {
            cost[i] += cost[i - 1];
            cost[size / 2 + size / 4 - 1 - j] = cost[i];
        }
        AtomicIntegerArray runs = new AtomicIntegerArray(size);
        AtomicLong work = new AtomicLong();
        try (ParallelFor pf = new ParallelFor(3)) {
            pf.parallelFor(0, size, 1, 100, i -> {
                runs.incrementAndGet((int) i);
                work.addAndGet(cost[(int) i]);
            });
        }
        for (int i = 0; i < size; i++) {
            assertThat(runs.get(i)).as("iteration %d", i).isEqualTo(1);
        }
        assertThat(work.get()).isEqualTo(java.util.Arrays.stream(cost).sum());
    }

    @Test
    void shouldDoAllThePowerLawWorkInEachOuterIteration() {
        long next = 7919;
        try (ParallelFor pf = new ParallelFor(3)) {
            for (int k = 0; k < 100; k++) { // the external sequential loop
                next = next * 1103515245 + 12345;
                long n = Math.max((long) (((next >>> 16) % 32768) / 32768.0 * 10_000), 64);
                long[] cost = new long[(int) n + 1];
                long expected = 0;
                for (int i = 1; i <= n; i++) {
                    cost[i] = (long) Math.ceil((n / 64) * Math.pow(i, -1.1));
                    expected += cost[i];
                }
                long done = pf.reduceLong(1, n + 1, 1, 1, 0L, (acc, i) -> acc + cost[(int) i], Long::sum);
                assertThat(done).as("outer iteration %d, n=%d", k, n).isEqualTo(expected);
            }
        }
    }
}
