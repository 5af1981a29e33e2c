package org.fastflowj.patterns.guide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.patterns.ParallelFor;
import org.fastflowj.patterns.ParallelForException;
import org.fastflowj.patterns.ParallelMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: ParallelFor and ParallelMap (docs/patterns.md, "ParallelFor"). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParallelForGuideTest {

    @Test
    void shouldFillAndSumAnArray() {
        int n = 100_000;
        // tag::basic[]
        double[] a = new double[n];
        try (ParallelFor pf = new ParallelFor(4)) { // 4 workers start here, and park between calls
            pf.parallelFor(0, n, i -> a[(int) i] = Math.sqrt(i)); // one contiguous block per worker

            long evens = pf.reduceLong(0, n, 2, 0, 0L, (count, i) -> count + 1, Long::sum);
            double sum = pf.reduceDouble(0, n, 1, 1000, 0.0, (s, i) -> s + a[(int) i], Double::sum);

            assertThat(evens).isEqualTo(n / 2);
            assertThat(sum)
                    .isCloseTo(2.0 / 3 * Math.pow(n, 1.5), org.assertj.core.data.Percentage.withPercentage(0.01));
        } // close(): every worker ends
        // end::basic[]
    }

    @Test
    void shouldVisitWhatAForLoopVisits() {
        try (ParallelFor pf = new ParallelFor(3)) {
            // tag::steps[]
            // for (long i = 100; i > 0; i -= 7) — in chunks of 4 iterations taken by free workers
            Set<Long> seen = pf.reduce(
                    100,
                    0,
                    -7,
                    4,
                    HashSet::new, // each worker's own set: no lock
                    (set, i) -> {
                        set.add(i);
                        return set;
                    },
                    (p, q) -> {
                        p.addAll(q);
                        return p;
                    });

            assertThat(seen).hasSize(15).contains(100L, 93L, 2L).doesNotContain(0L, -5L);

            // the ends of long are safe: no overflow, the loop stops at the last index
            long count = pf.reduceLong(Long.MAX_VALUE - 10, Long.MAX_VALUE, 3, 0, 0L, (c, i) -> c + 1, Long::sum);
            assertThat(count).isEqualTo(4);
            // end::steps[]
        }
    }

    @Test
    void shouldHandWholeChunks() {
        try (ParallelFor pf = new ParallelFor(2)) {
            long[] out = new long[1000];
            // tag::idx[]
            pf.parallelForIdx(0, 1000, 1, 100, (start, end, worker) -> {
                long[] scratch = new long[(int) (end - start)]; // set up once per chunk
                for (long i = start; i < end; i++) {
                    scratch[(int) (i - start)] = i * i;
                }
                System.arraycopy(scratch, 0, out, (int) start, scratch.length);
            });
            // end::idx[]
            assertThat(out[999]).isEqualTo(999L * 999);
        }
    }

    @Test
    void shouldReportAFailingBodyAndStayUsable() {
        try (ParallelFor pf = new ParallelFor(2)) {
            // tag::failure[]
            assertThatThrownBy(() -> pf.parallelFor(0, 10, i -> {
                        if (i == 7) {
                            throw new IllegalStateException("no seven");
                        }
                    }))
                    .isInstanceOf(ParallelForException.class)
                    .hasMessageContaining("failed at index 7")
                    .cause()
                    .hasMessage("no seven");

            // the pattern is still there for the next call
            assertThat(pf.reduceLong(0, 10, 1, 0, 0L, (s, i) -> s + i, Long::sum))
                    .isEqualTo(45);
            // end::failure[]
        }
    }

    @Test
    void shouldRunANestedLoopOnTheCallingWorker() {
        try (ParallelFor pf = new ParallelFor(2)) {
            // tag::nested[]
            long[][] table = new long[8][8];
            pf.parallelFor(
                    0,
                    8,
                    row ->
                            // the workers are busy with the outer loop: this one runs on the worker that called it
                            pf.parallelFor(0, 8, column -> table[(int) row][(int) column] = row * column));
            assertThat(table[7][6]).isEqualTo(42);
            // end::nested[]
        }
    }

    @Test
    void shouldMapEveryArrayOfAStream() {
        // tag::map[]
        List<Integer[]> arrays = List.of(new Integer[] {1, 2, 3}, new Integer[] {4, 5});
        List<String> lengths = new ArrayList<>();
        new Pipeline(
                        Node.source(arrays),
                        ParallelMap.<Integer, String>of(2, x -> "#".repeat(x), String[]::new),
                        Node.<String[]>sink(out -> lengths.add(String.join(" ", out))))
                .runAndWaitEnd();
        assertThat(lengths).containsExactly("# ## ###", "#### #####");
        // end::map[]
    }
}
