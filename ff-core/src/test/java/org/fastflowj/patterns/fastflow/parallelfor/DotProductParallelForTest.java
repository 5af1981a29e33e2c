package org.fastflowj.patterns.fastflow.parallelfor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.TimeUnit;
import org.fastflowj.patterns.ParallelFor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_dotprod_parfor.cpp: arrays initialised by a dynamic parallel for,
 * then a dot product reduced five times into a sum that starts at 5.0.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DotProductParallelForTest {

    @Test
    void shouldAccumulateFiveDotProducts() {
        int size = 1_000_000;
        int workers = 3;
        int chunk = Math.min(10_000, size / workers);
        double[] a = new double[size];
        double[] b = new double[size];
        double sum = 5.0;
        try (ParallelFor pf = new ParallelFor(workers)) {
            pf.parallelFor(0, size, 1, chunk, j -> {
                a[(int) j] = j * 3.14;
                b[(int) j] = 2.1 * j;
            });
            for (int z = 0; z < 5; z++) {
                sum += pf.reduceDouble(0, size, 1, chunk, 0.0, (s, i) -> s + a[(int) i] * b[(int) i], Double::sum);
            }
        }
        double expected = 5.0;
        for (int z = 0; z < 5; z++) {
            double dot = 0;
            for (int i = 0; i < size; i++) {
                dot += (i * 3.14) * (2.1 * i);
            }
            expected += dot;
        }
        assertThat(sum).isCloseTo(expected, within(expected * 1e-12));
    }
}
