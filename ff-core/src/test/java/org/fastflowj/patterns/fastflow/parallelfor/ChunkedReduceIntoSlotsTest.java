package org.fastflowj.patterns.fastflow.parallelfor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.fastflowj.patterns.ParallelFor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_parforpipereduce.cpp: each chunk of 100 (parallel_reduce_idx)
 * maps its indices to {@code A[i] * B[i]} in a list of its own, and a reduction stores every product
 * at {@code R[v % size]}; five times over.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ChunkedReduceIntoSlotsTest {

    @Test
    void shouldStoreEveryProductMappedChunkByChunk() {
        int size = 10_000;
        long[] a = new long[size];
        long[] b = new long[size];
        long[] r = new long[size];
        try (ParallelFor pf = new ParallelFor(3)) {
            pf.parallelFor(0, size, 1, 100, j -> {
                a[(int) j] = j;
                b[(int) j] = 2 * j + 1;
            });
            for (int z = 0; z < 5; z++) {
                ConcurrentLinkedQueue<List<Long>> mapped = new ConcurrentLinkedQueue<>();
                pf.parallelForIdx(0, size, 1, 100, (start, stop, thread) -> {
                    List<Long> c = new ArrayList<>((int) (stop - start));
                    for (long i = start; i < stop; i++) {
                        c.add(a[(int) i] * b[(int) i]);
                    }
                    mapped.add(c);
                });
                assertThat(mapped).hasSize(size / 100).allSatisfy(c -> assertThat(c)
                        .hasSize(100));
                for (List<Long> c : mapped) {
                    for (long v : c) {
                        r[(int) (v % size)] = v;
                    }
                }
            }
        }
        // several products may land on one slot, and which chunk stores last is not fixed: each slot
        // must hold one of its products, and a slot no product maps to stays 0
        List<Set<Long>> candidates = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            candidates.add(new HashSet<>());
        }
        for (long i = 0; i < size; i++) {
            long v = i * (2 * i + 1);
            candidates.get((int) (v % size)).add(v);
        }
        for (int slot = 0; slot < size; slot++) {
            Set<Long> values = candidates.get(slot);
            assertThat(values.isEmpty() ? Set.of(0L) : values).as("R[%d]", slot).contains(r[slot]);
        }
    }
}
