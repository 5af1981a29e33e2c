package org.fastflowj.patterns.fastflow.parallelfor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.TimeUnit;
import org.fastflowj.patterns.ParallelFor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_parfor_multireduce.cpp: one reduction computes two values at once
 * in a small mutable object, each worker starting from its own zero, added to a start value of
 * (1000, -1000).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MultiValueReductionTest {

    static final class ReductionVars {
        double sum;
        double diff;

        ReductionVars add(ReductionVars v) {
            sum += v.sum;
            diff += v.diff; // += because v.diff is already negative
            return this;
        }
    }

    @Test
    void shouldReduceTheSumAndTheDifferenceTogether() {
        int size = 1_000_000;
        double[] a = new double[size];
        double[] b = new double[size];
        for (int j = 0; j < size; j++) {
            a[j] = j * 3.14;
            b[j] = 2.1 * j;
        }
        ReductionVars r = new ReductionVars();
        r.sum = 1000.0;
        r.diff = -1000.0;
        try (ParallelFor pf = new ParallelFor(3)) {
            r.add(pf.reduce(
                    0,
                    size,
                    1,
                    0,
                    ReductionVars::new,
                    (acc, i) -> {
                        double tmp = a[(int) i] * b[(int) i];
                        acc.sum += tmp;
                        acc.diff -= tmp;
                        return acc;
                    },
                    ReductionVars::add));
        }
        double dot = 0;
        for (int i = 0; i < size; i++) {
            dot += a[i] * b[i];
        }
        assertThat(r.sum).isCloseTo(1000.0 + dot, within(dot * 1e-12));
        assertThat(r.diff).isCloseTo(-1000.0 - dot, within(dot * 1e-12));
    }
}
