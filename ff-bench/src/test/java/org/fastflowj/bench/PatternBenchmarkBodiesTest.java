package org.fastflowj.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.RunOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The pattern benchmarks' bodies on small inputs: every variant computes the same result. No timing. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PatternBenchmarkBodiesTest {
    @Test
    void shouldComputeTheSameFibonacciAndSortInEveryVariant() {
        DivideAndConquerSpeedup bench = new DivideAndConquerSpeedup();
        DivideAndConquerSpeedup.Work work = new DivideAndConquerSpeedup.Work();
        work.prepare(100_000, RunOptions.defaults());
        try {
            long expected = DivideAndConquerSpeedup.fib(DivideAndConquerSpeedup.FIB_N);
            assertThat(bench.fibonacciSequential()).isEqualTo(expected);
            assertThat(bench.fibonacciForkJoin(work)).isEqualTo(expected);
            assertThat(bench.fibonacciDivideAndConquer(work)).isEqualTo(expected);

            int[] sorted = work.unsorted.clone();
            Arrays.sort(sorted);
            assertThat(bench.mergeSortSequential(work)).isEqualTo(sorted);
            assertThat(bench.mergeSortForkJoin(work)).isEqualTo(sorted);
            assertThat(bench.mergeSortDivideAndConquer(work)).isEqualTo(sorted);
        } finally {
            work.tearDown();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {8, 32})
    void shouldMultiplyBitForBitAlikeInEveryVariant(int block) {
        MatMulSpeedup bench = new MatMulSpeedup();
        double[][][][] results = new double[3][][][];
        for (int variant = 0; variant < 3; variant++) {
            MatMulSpeedup.Matrices m = new MatMulSpeedup.Matrices();
            m.prepare(96, block, RunOptions.defaults()); // C starts from the same random values each time
            try {
                results[variant] = switch (variant) {
                    case 0 -> bench.sequential(m);
                    case 1 -> bench.forkJoin(m);
                    default -> bench.macroDataFlow(m);
                };
            } finally {
                m.tearDown();
            }
        }
        assertThat(results[1]).isDeepEqualTo(results[0]);
        assertThat(results[2]).isDeepEqualTo(results[0]);
        assertThat(Arrays.deepEquals(results[0], MatMulSpeedup.random(96, block, 3)))
                .isFalse(); // C did change
    }
}
