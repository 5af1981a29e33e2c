package org.fastflowj.patterns.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.patterns.TaskFarm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: TaskFarm (docs/patterns.md, "Task farm"). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TaskFarmGuideTest {

    @Test
    void shouldCountPrimesOfEachRangeInRounds() {
        List<int[]> ranges = List.of(new int[] {0, 50_000}, new int[] {50_000, 120_000}, new int[] {120_000, 200_000});
        // tag::rounds[]
        long[] primes = new long[ranges.size()];
        try (TaskFarm tasks = new TaskFarm(2)) { // 2 workers start here, and park between rounds
            for (int r = 0; r < ranges.size(); r++) {
                int slot = r; // each task writes its own element: no lock
                int[] range = ranges.get(r);
                tasks.addTask("primes in " + range[0] + ".." + range[1], () -> primes[slot] = countPrimes(range));
            }
            tasks.waitAll(); // the barrier: every task above has run, and its writes are visible here

            tasks.addTask(() -> primes[0] -= 1); // the next round, on the same workers
            tasks.waitAll();
        } // close(): waits for a round still running, then every worker ends
        // end::rounds[]
        assertThat(primes)
                .containsExactly(
                        countPrimes(ranges.get(0)) - 1, countPrimes(ranges.get(1)), countPrimes(ranges.get(2)));
        assertThat(primes[0] + 1 + primes[1] + primes[2]).isEqualTo(17_984); // π(200 000)
    }

    private static long countPrimes(int[] range) {
        return IntStream.range(range[0], range[1])
                .filter(TaskFarmGuideTest::isPrime)
                .count();
    }

    private static boolean isPrime(int n) {
        if (n < 2) {
            return false;
        }
        for (int d = 2; (long) d * d <= n; d++) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }
}
