package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.fastflowj.core.NodeThreadStates;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class DivideAndConquerTest {

    static long sequentialFibonacci(long n) {
        return n < 2 ? n : sequentialFibonacci(n - 1) + sequentialFibonacci(n - 2);
    }

    @Test
    void shouldComputeFibonacciAsTheSequentialRecursion() {
        // tag::fibonacci[]
        DivideAndConquer<Long, Long> fibonacci = new DivideAndConquer<>(
                n -> List.of(n - 1, n - 2), // divide
                results -> results.get(0) + results.get(1), // combine
                n -> sequentialFibonacci(n), // solve a base case sequentially
                n -> n <= 20, // isBase: below this, a task is too small to be worth a hand-over
                2); // workers
        long fib32 = fibonacci.run(32L);
        // end::fibonacci[]

        assertThat(fib32).isEqualTo(sequentialFibonacci(32));
        assertThat(fibonacci.run(25L)).isEqualTo(75_025L); // reusable: a second run on the same object
    }

    /** FastFlow's tests/test_dc.cpp: every node of fib(20)'s tree goes through the farm (base case op <= 2). */
    @Test
    void shouldComputeFastFlowsTestDcFibonacciWithFourWorkers() {
        DivideAndConquer<Long, Long> dac = new DivideAndConquer<>(
                op -> List.of(op - 1, op - 2), res -> res.get(0) + res.get(1), op -> 1L, op -> op <= 2, 4);

        assertThat(dac.run(20L)).isEqualTo(6765L);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void shouldMergeSortAsArraysSort(int workers) {
        int[] input = new Random(42).ints(200_000).toArray();
        // tag::merge-sort[]
        DivideAndConquer<int[], int[]> mergeSort = new DivideAndConquer<>(
                a -> List.of(Arrays.copyOfRange(a, 0, a.length / 2), Arrays.copyOfRange(a, a.length / 2, a.length)),
                halves -> merge(halves.get(0), halves.get(1)),
                a -> {
                    int[] sorted = a.clone();
                    Arrays.sort(sorted);
                    return sorted;
                },
                a -> a.length <= 4096,
                workers);
        int[] sorted = mergeSort.run(input);
        // end::merge-sort[]

        int[] expected = input.clone();
        Arrays.sort(expected);
        assertThat(sorted).isEqualTo(expected);
    }

    // tag::merge[]
    static int[] merge(int[] left, int[] right) {
        int[] out = new int[left.length + right.length];
        int i = 0, j = 0, k = 0;
        while (i < left.length && j < right.length) {
            out[k++] = left[i] <= right[j] ? left[i++] : right[j++];
        }
        while (i < left.length) {
            out[k++] = left[i++];
        }
        while (j < right.length) {
            out[k++] = right[j++];
        }
        return out;
    }
    // end::merge[]

    /** Quicksort by value ranges: {@code arity} buckets between the minimum and the maximum. */
    static DivideAndConquer<int[], int[]> quicksort(int arity, int workers) {
        return new DivideAndConquer<>(
                a -> split(a, arity),
                DivideAndConquerTest::concatenate,
                a -> {
                    int[] sorted = a.clone();
                    Arrays.sort(sorted);
                    return sorted;
                },
                a -> a.length <= 64
                        || Arrays.stream(a).min().getAsInt()
                                == Arrays.stream(a).max().getAsInt(),
                workers);
    }

    /** Buckets by value: the minimum lands in the first, the maximum in the last, so each is smaller. */
    static List<int[]> split(int[] a, int arity) {
        long min = Arrays.stream(a).min().getAsInt();
        long max = Arrays.stream(a).max().getAsInt();
        List<List<Integer>> buckets = new ArrayList<>();
        for (int b = 0; b < arity; b++) {
            buckets.add(new ArrayList<>());
        }
        for (int v : a) {
            buckets.get((int) ((v - min) * arity / (max - min + 1))).add(v);
        }
        return buckets.stream()
                .map(b -> b.stream().mapToInt(Integer::intValue).toArray())
                .toList();
    }

    static int[] concatenate(List<int[]> parts) {
        return parts.stream().flatMapToInt(Arrays::stream).toArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 7})
    void shouldQuicksortWithAnyArity(int arity) {
        int[] input = new Random(arity).ints(50_000, -1000, 1000).toArray(); // many duplicates
        int[] expected = input.clone();
        Arrays.sort(expected);

        assertThat(quicksort(arity, 2).run(input)).isEqualTo(expected);
    }

    /** A tree where node n has n % 4 children n - 1: arities 0, 1, 2 and 3 in one run. */
    @Test
    void shouldCombineAnyNumberOfSubResultsIncludingNoneAndOne() {
        Function<Integer, List<Integer>> children =
                n -> n == 0 ? List.of() : java.util.Collections.nCopies(n % 4, n - 1);
        DivideAndConquer<Integer, Long> countNodes = new DivideAndConquer<>(
                children,
                counts -> 1 + counts.stream().mapToLong(Long::longValue).sum(), // combine([]) == 1: a leaf
                n -> {
                    throw new AssertionError("never a base case");
                },
                n -> false,
                3);

        for (int root : new int[] {0, 1, 5, 7, 11}) {
            assertThat(countNodes.run(root)).as("nodes under %d", root).isEqualTo(sequentialCount(root, children));
        }
    }

    static long sequentialCount(int n, Function<Integer, List<Integer>> children) {
        long count = 1;
        for (int child : children.apply(n)) {
            count += sequentialCount(child, children);
        }
        return count;
    }

    @Test
    void shouldSolveARootThatIsABaseCaseOnce() {
        AtomicInteger solved = new AtomicInteger();
        DivideAndConquer<Integer, String> dc = new DivideAndConquer<>(
                n -> {
                    throw new AssertionError("never divided");
                },
                r -> {
                    throw new AssertionError("never combined");
                },
                n -> {
                    solved.incrementAndGet();
                    return "solved " + n;
                },
                n -> true,
                2);

        assertThat(dc.run(7)).isEqualTo("solved 7");
        assertThat(solved).hasValue(1);
    }

    @Test
    void shouldRunWithTheBlockingWaitStrategy() {
        DivideAndConquer<Long, Long> dc = new DivideAndConquer<>(
                n -> List.of(n - 1, n - 2),
                r -> r.get(0) + r.get(1),
                DivideAndConquerTest::sequentialFibonacci,
                n -> n <= 10,
                2,
                RunOptions.defaults().waitStrategy(WaitStrategy.BLOCKING));

        assertThat(dc.run(24L)).isEqualTo(46_368L);
    }

    /** Fibonacci whose functions throw at problem 13, each in turn, recording the threads they ran on. */
    static DivideAndConquer<Long, Long> failingAt(String function, Set<Thread> threads) {
        IllegalStateException boom = new IllegalStateException(function + " broke");
        return new DivideAndConquer<>(
                n -> {
                    threads.add(Thread.currentThread());
                    if (function.equals("divide") && n == 13) {
                        throw boom;
                    }
                    return List.of(n - 1, n - 2);
                },
                r -> {
                    threads.add(Thread.currentThread());
                    if (function.equals("combine") && r.get(0) == 233L) { // the result of fib(13)
                        throw boom;
                    }
                    return r.get(0) + r.get(1);
                },
                n -> {
                    threads.add(Thread.currentThread());
                    if (function.equals("solve") && n == 1) {
                        throw boom;
                    }
                    return n;
                },
                n -> {
                    if (function.equals("isBase") && n == 13) {
                        throw boom;
                    }
                    return n < 2;
                },
                2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"divide", "combine", "solve", "isBase"})
    void shouldFailTheRunNamingTheFunctionThatThrewAndLeaveNoThreadBehind(String function) {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        DivideAndConquer<Long, Long> dc = failingAt(function, threads);

        DivideAndConquerException failure = catchThrowableOfType(DivideAndConquerException.class, () -> dc.run(20L));

        assertThat(failure.function()).isEqualTo(function);
        assertThat(failure).hasMessageContaining("DivideAndConquer: " + function + " failed");
        assertThat(failure.getCause()).isInstanceOf(IllegalStateException.class).hasMessage(function + " broke");
        assertThat(threads)
                .isNotEmpty()
                .noneMatch(NodeThreadStates::runsANode); // run() returned after every thread ended
    }

    @Test
    void shouldNameADivideThatReturnsNull() {
        DivideAndConquer<Integer, Integer> dc = new DivideAndConquer<>(n -> null, r -> 0, n -> n, n -> false, 1);

        DivideAndConquerException failure = catchThrowableOfType(DivideAndConquerException.class, () -> dc.run(3));

        assertThat(failure.function()).isEqualTo("divide");
        assertThat(failure.getCause()).hasMessageContaining("divide returned null");
    }

    @Test
    void shouldBeUsableAgainAfterAFailedRun() {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        DivideAndConquer<Long, Long> dc = failingAt("solve", threads);
        catchThrowableOfType(DivideAndConquerException.class, () -> dc.run(10L));

        assertThat(dc.run(0L)).isZero(); // fib(0) is a base case that does not throw
    }

    @Test
    void shouldRejectNoWorkers() {
        Throwable failure = catchThrowableOfType(
                IllegalArgumentException.class,
                () -> new DivideAndConquer<Integer, Integer>(n -> List.of(), r -> 0, n -> n, n -> true, 0));
        assertThat(failure).hasMessage("DivideAndConquer: workers must be >= 1, got 0");
    }
}
