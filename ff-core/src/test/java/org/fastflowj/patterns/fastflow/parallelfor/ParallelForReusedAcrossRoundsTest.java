package org.fastflowj.patterns.fastflow.parallelfor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.fastflowj.patterns.ParallelFor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_parfor2.cpp: two patterns created once (FF_PARFOR_INIT,
 * FF_PARFORREDUCE_INIT), then in each of three rounds a parallel for writes the array and a reduction
 * with chunks of 111 sums it; the sum accumulates over the rounds.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ParallelForReusedAcrossRoundsTest {

    @Test
    void shouldSumTheArrayRewrittenInEachRound() {
        int size = 1_000_000;
        long[] a = new long[size];
        long sum = 0;
        long expected = 0;
        try (ParallelFor pf1 = new ParallelFor(3);
                ParallelFor pf2 = new ParallelFor(3)) {
            for (int k = 0; k < 3; k++) {
                int round = k;
                pf1.parallelFor(0, size, 1, 1, j -> a[(int) j] = j + round);
                sum += pf2.reduceLong(0, size, 1, 111, 0L, (s, i) -> s + a[(int) i], Long::sum);
                expected += (long) size * (size - 1) / 2 + (long) size * k;
            }
        }
        assertThat(sum).isEqualTo(expected);
    }
}
