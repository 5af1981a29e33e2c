package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A ParallelFor with worker groups, in one process (no group selected): every index once, the same results
 * as without groups, and what a body must be to cross groups. One JVM per group: ff-dist's {@code
 * PatternsProcessTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParallelForGroupsTest {
    /** a[i] = i * i. */
    record Squares(long[] a) implements IndexBody {
        @Override
        public void apply(long i) {
            a[(int) i] += i * i; // += : an index run twice would show
        }
    }

    record SumOfSquares() implements LongReduceBody {
        @Override
        public long apply(long partial, long i) {
            return partial + i * i;
        }
    }

    record Halves() implements DoubleReduceBody {
        @Override
        public double apply(double partial, long i) {
            return partial + i / 2.0;
        }
    }

    record Collect() implements ReduceBody<Set<Long>> {
        @Override
        public Set<Long> apply(Set<Long> partial, long i) {
            partial.add(i);
            return partial;
        }
    }

    record NewSet() implements Supplier<Set<Long>> {
        @Override
        public Set<Long> get() {
            return new HashSet<>();
        }
    }

    private static ParallelFor grouped() {
        return new ParallelFor(1).createGroup("S").addWorkerGroup("W1", 2).addWorkerGroup("W2", 1);
    }

    @Test
    void shouldVisitEveryIndexOnceStaticAndDynamic() {
        try (ParallelFor pf = grouped()) {
            for (long grain : new long[] {0, 1, 7}) {
                long[] a = new long[1000];
                pf.parallelFor(0, 1000, 1, grain, new Squares(a));
                assertThat(a)
                        .isEqualTo(LongStream.range(0, 1000).map(i -> i * i).toArray());
            }
            long[] odd = new long[100];
            pf.parallelFor(99, 0, -2, 3, new Squares(odd));
            for (int i = 0; i < 100; i++) {
                assertThat(odd[i]).isEqualTo(i % 2 == 1 ? (long) i * i : 0);
            }
        }
    }

    @Test
    void shouldReduceAsTheSequentialLoop() {
        try (ParallelFor pf = grouped()) {
            long expected = LongStream.range(0, 10_000).map(i -> i * i).sum();
            assertThat(pf.reduceLong(0, 10_000, 1, 0, 0L, new SumOfSquares(), Long::sum))
                    .isEqualTo(expected);
            assertThat(pf.reduceLong(0, 10_000, 1, 64, 0L, new SumOfSquares(), Long::sum))
                    .isEqualTo(expected);
            assertThat(pf.reduceDouble(0, 100, 1, 9, 0.0, new Halves(), Double::sum))
                    .isEqualTo(2475.0);
            assertThat(pf.reduce(0, 500, 3, 10, new NewSet(), new Collect(), (p, q) -> {
                        p.addAll(q);
                        return p;
                    }))
                    .hasSize(167)
                    .contains(0L, 3L, 498L);
            assertThat(pf.reduceLong(5, 5, 1, 0, 42L, new SumOfSquares(), Long::sum))
                    .isEqualTo(42L);
        }
    }

    @Test
    void shouldRefuseALambdaBodyWhenWorkersSpanGroups() {
        try (ParallelFor pf = grouped()) {
            assertThatThrownBy(() -> pf.parallelFor(0, 10, 1, 0, i -> {}))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("ParallelFor: the body is")
                    .hasMessageContaining("but workers run in groups [W1, W2]")
                    .hasMessageContaining("must be a named class or record");
        }
    }

    /** Fails at index 13. */
    record Failing() implements IndexBody {
        @Override
        public void apply(long i) {
            if (i == 13) {
                throw new IllegalStateException("bad index 13");
            }
        }
    }

    @Test
    void shouldFailTheCallWithTheBodysExceptionAndStayUsable() {
        try (ParallelFor pf = grouped()) {
            assertThatThrownBy(() -> pf.parallelFor(0, 100, 1, 4, new Failing()))
                    .isInstanceOf(ParallelForException.class)
                    .hasMessageContaining("bad index 13")
                    .cause()
                    .isInstanceOf(IllegalStateException.class);
            assertThat(pf.reduceLong(0, 10, 1, 0, 0L, new SumOfSquares(), Long::sum))
                    .isEqualTo(285L);
        }
    }

    @Test
    void shouldRefuseAWorkerGroupBeforeTheCallersGroup() {
        try (ParallelFor pf = new ParallelFor(1)) {
            assertThatThrownBy(() -> pf.addWorkerGroup("W", 1))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("before createGroup(name)");
        }
    }
}
