package org.fastflowj.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The reduction benchmark's variants on a tiny loop: all must compute the same sum. No timing asserted. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ParallelForReduceTest {

    @Test
    void shouldComputeTheSameSumInEveryVariant() {
        ParallelForReduce bench = new ParallelForReduce();
        ParallelForReduce.Loop loop = new ParallelForReduce.Loop();
        loop.prepare(1000, 2_000, 3);
        try {
            long expected = bench.sequential(loop);
            assertThat(loop.iterations).isEqualTo(2_000);
            assertThat(bench.reduceStatic(loop)).isEqualTo(expected);
            assertThat(bench.reduceDynamic(loop)).isEqualTo(expected);
            assertThat(bench.longStream(loop)).isEqualTo(expected);
            assertThat(bench.intStream(loop)).isEqualTo(expected);
            assertThat(bench.forkJoin(loop)).isEqualTo(expected);
        } finally {
            loop.tearDown();
        }
    }
}
