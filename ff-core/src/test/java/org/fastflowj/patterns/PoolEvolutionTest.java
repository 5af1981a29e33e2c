package org.fastflowj.patterns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The contract of PoolEvolution: results, thread numbers, failures, the population list, life cycle. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PoolEvolutionTest {

    /** The rounds counted by the filter of the Collatz example. */
    static final class Progress {
        int rounds;
    }

    @Test
    void shouldRunEveryNumberToTheEndOfItsCollatzSequence() {
        // tag::collatz[]
        // every number takes one step of its Collatz sequence a round, and leaves the pool when it reaches 1
        Progress progress = new Progress();
        try (PoolEvolution<Long, Progress> pool = new PoolEvolution<>(
                2, // workers
                (pf, population, env) -> new ArrayList<>(population), // selection: every number is a candidate
                (x, env, thread) -> x % 2 == 0 ? x / 2 : 3 * x + 1, // evolution: on the workers, in parallel
                (pf, population, evolved, env) -> { // filter: the next population
                    env.rounds++;
                    evolved.removeIf(x -> x == 1);
                    return evolved;
                },
                (population, env) -> population.isEmpty())) { // termination
            List<Long> population =
                    new ArrayList<>(LongStream.range(2, 1000).boxed().toList());
            pool.run(population, progress);

            assertThat(population).isEmpty();
            assertThat(progress.rounds).isEqualTo(178); // the longest sequence below 1000: 871's
        }
        // end::collatz[]
        assertThat(progress.rounds).isEqualTo(longestCollatzSequenceBelow(1000));
    }

    private static int longestCollatzSequenceBelow(long limit) {
        int longest = 0;
        for (long n = 2; n < limit; n++) {
            int steps = 0;
            for (long x = n; x != 1; x = x % 2 == 0 ? x / 2 : 3 * x + 1) {
                steps++;
            }
            longest = Math.max(longest, steps);
        }
        return longest;
    }

    /**
     * The shared state of the small evolution below: rounds done, and which function is to throw in which
     * round (none by default).
     */
    static final class Env {
        final String failing;
        final int failRound;
        int rounds;

        Env() {
            this(null, -1);
        }

        Env(String failing, int failRound) {
            this.failing = failing;
            this.failRound = failRound;
        }

        void maybeFail(String function, Exception failure) throws Exception {
            if (function.equals(failing) && rounds == failRound) {
                throw failure;
            }
        }
    }

    /** Five rounds, each adding 1 to every element (evolution) and then doubling the odd ones (filter). */
    private static PoolEvolution<Integer, Env> fiveRounds(int workers, Exception failure) {
        return new PoolEvolution<>(
                workers,
                (pf, population, env) -> {
                    env.maybeFail("selection", failure);
                    return new ArrayList<>(population);
                },
                (x, env, thread) -> {
                    if (x == 10) {
                        env.maybeFail("evolution", failure);
                    }
                    return x + 1;
                },
                (pf, population, evolved, env) -> {
                    env.maybeFail("filter", failure);
                    evolved.replaceAll(x -> x % 2 == 1 ? 2 * x : x);
                    env.rounds++;
                    return evolved;
                },
                (population, env) -> {
                    env.maybeFail("termination", failure);
                    return env.rounds == 5;
                });
    }

    private static List<Integer> fiveRoundsSequentially(List<Integer> population) {
        List<Integer> p = new ArrayList<>(population);
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < p.size(); i++) {
                int x = p.get(i) + 1;
                p.set(i, x % 2 == 1 ? 2 * x : x);
            }
        }
        return p;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void shouldGiveTheSequentialLoopsResultInTheCallersList(int workers) {
        List<Integer> initial = IntStream.range(0, 10_000).boxed().toList();
        try (PoolEvolution<Integer, Env> pool = fiveRounds(workers, null)) {
            List<Integer> population = new ArrayList<>(initial);
            Env env = new Env();

            assertThat(pool.run(population, env)).isSameAs(population);

            assertThat(population).isEqualTo(fiveRoundsSequentially(initial));
            assertThat(env.rounds).isEqualTo(5);
            assertThat(pool.workers()).isEqualTo(workers);
        }
    }

    @Test
    void shouldEvolveALinkedListAndCopyAShorterOrLongerPopulationIntoIt() {
        try (PoolEvolution<Integer, int[]> pool = new PoolEvolution<>(
                3,
                (pf, population, env) -> population, // evolve the population in place
                (x, env, thread) -> x * 10,
                (pf, population, evolved, env) -> {
                    env[0]++;
                    List<Integer> next = new ArrayList<>(evolved);
                    if (env[0] == 1) {
                        next.addAll(List.of(-1, -2)); // longer than the caller's list
                    } else {
                        next.subList(0, 3).clear(); // shorter
                    }
                    return next;
                },
                (population, env) -> env[0] == 2)) {
            LinkedList<Integer> population = new LinkedList<>(List.of(1, 2, 3, 4, 5));

            pool.run(population, new int[1]);

            // round 1: 10 20 30 40 50 -1 -2; round 2: x10, without the first three
            assertThat(population).containsExactly(400, 500, -10, -20);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"selection", "evolution", "filter", "termination"})
    void shouldFailTheRunNamingTheFunctionAndTheRoundAndStayUsable(String function) {
        Exception boom = new IOException(function + " boom"); // checked: passed on as the cause, unchanged
        try (PoolEvolution<Integer, Env> pool = fiveRounds(3, boom)) {
            List<Integer> population =
                    new ArrayList<>(IntStream.range(0, 100).boxed().toList());

            PoolEvolutionException failure = catchThrowableOfType(
                    PoolEvolutionException.class, () -> pool.run(population, new Env(function, 2)));

            assertThat(failure).hasCause(boom).hasMessageContaining(function).hasMessageContaining("round 2");
            assertThat(failure.getCause()).isSameAs(boom);
            assertThat(failure.function()).isEqualTo(function);
            assertThat(failure.round()).isEqualTo(2);
            if (function.equals("evolution")) {
                // in round 2, 10 is the candidate at index 3 alone (3 -> 4 -> 10; index 2k -> 8k + 6, 2k + 1 -> 4k + 6)
                assertThat(failure).hasMessageContaining("candidate 3");
            }

            List<Integer> again = new ArrayList<>(List.of(1, 2, 3));
            Env env = new Env();
            pool.run(again, env);
            assertThat(again).isEqualTo(fiveRoundsSequentially(List.of(1, 2, 3)));
            assertThat(env.rounds).isEqualTo(5);
        }
    }

    @Test
    void shouldFailTheRunWhenSelectionOrFilterReturnsNull() {
        for (String function : List.of("selection", "filter")) {
            try (PoolEvolution<Integer, Void> pool = new PoolEvolution<>(
                    2,
                    (pf, population, env) -> function.equals("selection") ? null : new ArrayList<>(population),
                    (x, env, thread) -> x,
                    (pf, population, evolved, env) -> function.equals("filter") ? null : evolved,
                    (population, env) -> false)) {
                assertThatThrownBy(() -> pool.run(new ArrayList<>(List.of(1, 2)), null))
                        .isInstanceOf(PoolEvolutionException.class)
                        .hasMessageContaining(function + " returned null")
                        .hasMessageContaining("round 0")
                        .hasNoCause();
            }
        }
    }

    @Test
    void shouldFailTheRunWhenSelectionReturnsAListTheEvolutionCannotWriteInto() {
        AtomicInteger evolutions = new AtomicInteger();
        try (PoolEvolution<Integer, Void> pool = new PoolEvolution<>(
                2,
                (pf, population, env) -> List.copyOf(population),
                (x, env, thread) -> {
                    evolutions.incrementAndGet();
                    return x;
                },
                (pf, population, evolved, env) -> evolved,
                (population, env) -> false)) {
            assertThatThrownBy(() -> pool.run(new ArrayList<>(List.of(1, 2)), null))
                    .isInstanceOf(PoolEvolutionException.class)
                    .hasMessageContaining("selection returned a list the evolution cannot write into")
                    .hasCauseInstanceOf(UnsupportedOperationException.class);
            assertThat(evolutions).hasValue(0);
        }
    }

    @Test
    void shouldGiveEachWorkerItsOwnThreadNumber() {
        int workers = 3; // more than the machine's cores, on a 2-core machine
        Map<Integer, Set<Thread>> threadsByNumber = new ConcurrentHashMap<>();
        try (PoolEvolution<Integer, int[]> pool = new PoolEvolution<>(
                workers,
                (pf, population, env) -> new ArrayList<>(population),
                (x, env, thread) -> {
                    threadsByNumber
                            .computeIfAbsent(thread, t -> ConcurrentHashMap.newKeySet())
                            .add(Thread.currentThread());
                    return x + thread;
                },
                (pf, population, evolved, env) -> {
                    env[0]++;
                    return evolved;
                },
                (population, env) -> env[0] == 10)) {
            List<Integer> population = new ArrayList<>(Collections.nCopies(999, 0));

            pool.run(population, new int[1]);

            // static blocks of 333, one per worker: every element of a block grew by its worker's number in
            // each of the 10 rounds, and the three blocks had the three numbers
            Set<Integer> blockGrowth = new HashSet<>();
            for (int block = 0; block < workers; block++) {
                int first = population.get(block * 333);
                assertThat(population.subList(block * 333, (block + 1) * 333))
                        .as("block %d", block)
                        .containsOnly(first);
                blockGrowth.add(first);
            }
            assertThat(blockGrowth).containsExactlyInAnyOrder(0, 10, 20);
        }
        assertThat(threadsByNumber).containsOnlyKeys(0, 1, 2);
        // one thread per number, and a different one for each number
        assertThat(threadsByNumber.values())
                .allSatisfy(threads -> assertThat(threads).hasSize(1));
        assertThat(threadsByNumber.values().stream().flatMap(Set::stream).distinct())
                .hasSize(workers);
        assertThat(threadsByNumber.values().stream().flatMap(Set::stream)).doesNotContain(Thread.currentThread());
    }

    @Test
    void shouldRunSelectionAndFilterLoopsOnThePatternsWorkers() {
        Set<String> loopThreads = ConcurrentHashMap.newKeySet();
        Set<String> evolutionThreads = ConcurrentHashMap.newKeySet();
        try (PoolEvolution<Long, long[]> pool = new PoolEvolution<>(
                2,
                (pf, population, env) -> {
                    env[0] = pf.reduceLong(
                            0,
                            population.size(),
                            1,
                            0,
                            0L,
                            (s, i) -> {
                                loopThreads.add(Thread.currentThread().getName());
                                return s + population.get((int) i);
                            },
                            Long::sum);
                    return new ArrayList<>(population);
                },
                (x, env, thread) -> {
                    evolutionThreads.add(Thread.currentThread().getName());
                    return x + 1;
                },
                (pf, population, evolved, env) -> evolved,
                (population, env) -> env[0] >= 1_000)) {
            List<Long> population = new ArrayList<>(Collections.nCopies(100, 0L));
            long[] sum = new long[1];

            pool.run(population, sum);

            // round r's selection sums 100 r, then its evolution makes every element r + 1; the termination
            // sees round 10's sum
            assertThat(sum[0]).isEqualTo(1_000);
            assertThat(population).containsOnly(11L);
        }
        assertThat(loopThreads).isNotEmpty().isEqualTo(evolutionThreads);
    }

    @Test
    void shouldLeaveThePopulationAsItIsWhenTerminationHoldsAtOnce() {
        AtomicInteger calls = new AtomicInteger();
        try (PoolEvolution<String, Void> pool = new PoolEvolution<>(
                2,
                (pf, population, env) -> {
                    calls.incrementAndGet();
                    return new ArrayList<>(population);
                },
                (s, env, thread) -> {
                    calls.incrementAndGet();
                    return s + "!";
                },
                (pf, population, evolved, env) -> {
                    calls.incrementAndGet();
                    return new ArrayList<>();
                },
                (population, env) -> true)) {
            List<String> population = new ArrayList<>(List.of("a", "b", "c"));

            assertThat(pool.run(population, null)).isSameAs(population);

            assertThat(population).containsExactly("a", "b", "c");
            assertThat(calls).hasValue(0);
        }
    }

    @Test
    void shouldRefuseAnUnmodifiableOrFixedSizePopulationBeforeCallingAnyFunction() {
        AtomicInteger calls = new AtomicInteger();
        try (PoolEvolution<Integer, Void> pool = new PoolEvolution<>(
                2,
                (pf, population, env) -> new ArrayList<>(population),
                (x, env, thread) -> x,
                (pf, population, evolved, env) -> evolved,
                (population, env) -> calls.incrementAndGet() > 0)) {
            for (List<Integer> refused : List.of(
                    List.of(1, 2, 3),
                    List.<Integer>of(),
                    Collections.unmodifiableList(new ArrayList<>(List.of(1, 2))),
                    Arrays.asList(3, 1, 2))) {
                List<Integer> before = List.copyOf(refused);
                assertThatThrownBy(() -> pool.run(refused, null))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("unmodifiable or of fixed size")
                        .hasMessageContaining(refused.getClass().getName());
                assertThat(refused).isEqualTo(before);
            }
            assertThat(calls).hasValue(0);

            // a modifiable list goes through the same check unchanged
            List<Integer> modifiable = new ArrayList<>(List.of(3, 1, 2));
            pool.run(modifiable, null);
            assertThat(modifiable).containsExactly(3, 1, 2);
            assertThat(calls).hasValue(1);
        }
    }

    @Test
    void shouldCopyAFilteredViewOfThePopulationIntoIt() {
        try (PoolEvolution<Integer, int[]> pool = new PoolEvolution<>(
                2,
                (pf, population, env) -> population,
                (x, env, thread) -> -x,
                (pf, population, evolved, env) -> {
                    env[0]++;
                    population.sort(null);
                    return population.subList(0, 3); // the three smallest
                },
                (population, env) -> env[0] == 1)) {
            List<Integer> population = new ArrayList<>(List.of(5, 9, 1, 7, 3));

            pool.run(population, new int[1]);

            assertThat(population).containsExactly(-9, -7, -5);
        }
    }

    @Test
    void shouldRefuseARunStartedDuringAnother() {
        try (PoolEvolution<Integer, Void> pool = new PoolEvolution<>(
                2, (pf, p, env) -> p, (x, env, thread) -> x, (pf, p, evolved, env) -> evolved, (p, env) -> true)) {
            try (PoolEvolution<Integer, PoolEvolution<Integer, Void>> outer = new PoolEvolution<>(
                    1, (pf, p, inner) -> p, (x, inner, thread) -> x, (pf, p, evolved, inner) -> evolved, (p, inner) -> {
                        inner.run(new ArrayList<>(), null); // another pattern, free: allowed
                        return true;
                    })) {
                outer.run(new ArrayList<>(List.of(1)), pool);
            }

            AtomicReference<PoolEvolution<Integer, Void>> self = new AtomicReference<>();
            try (PoolEvolution<Integer, Void> nested = new PoolEvolution<>(
                    1, (pf, p, env) -> p, (x, env, thread) -> x, (pf, p, evolved, env) -> evolved, (p, env) -> {
                        self.get().run(new ArrayList<>(), null);
                        return true;
                    })) {
                self.set(nested);
                assertThatThrownBy(() -> nested.run(new ArrayList<>(List.of(1)), null))
                        .isInstanceOf(PoolEvolutionException.class)
                        .hasMessageContaining("termination")
                        .cause()
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("another run");
            }
        }
    }

    /** The stream's evolution, sequentially: add 1 to every element, double the odd ones, until all reach 1000. */
    private static List<Integer> untilAllReach1000Sequentially(List<Integer> population, Env env) {
        List<Integer> p = new ArrayList<>(population);
        while (!p.stream().allMatch(x -> x >= 1000)) {
            for (int i = 0; i < p.size(); i++) {
                int x = p.get(i) + 1;
                p.set(i, x % 2 == 1 ? 2 * x : x);
            }
            env.rounds++;
        }
        return p;
    }

    @Test
    void shouldEvolveEveryPopulationOfAStreamInPlace() {
        List<List<Integer>> populations = List.of(
                new ArrayList<>(List.of(1, 2, 3)),
                new ArrayList<>(),
                new ArrayList<>(IntStream.range(0, 50).boxed().toList()),
                new ArrayList<>(List.of(999, 1000, 1001)));
        Env expectedEnv = new Env();
        List<List<Integer>> expected = populations.stream()
                .map(p -> untilAllReach1000Sequentially(p, expectedEnv))
                .toList();
        List<List<Integer>> out = new ArrayList<>();
        Env env = new Env();
        try (PoolEvolution<Integer, Env> pool = new PoolEvolution<>(
                2,
                (pf, population, e) -> new ArrayList<>(population),
                (x, e, thread) -> x + 1,
                (pf, population, evolved, e) -> {
                    evolved.replaceAll(x -> x % 2 == 1 ? 2 * x : x);
                    e.rounds++;
                    return evolved;
                },
                (population, e) -> population.stream().allMatch(x -> x >= 1000))) {
            new Pipeline(Node.source(populations), pool.stage(env), Node.<List<Integer>>sink(out::add)).runAndWaitEnd();
        }
        assertThat(out).isEqualTo(expected);
        for (int i = 0; i < out.size(); i++) {
            assertThat(out.get(i)).isSameAs(populations.get(i));
        }
        assertThat(env.rounds).isEqualTo(expectedEnv.rounds).isPositive();
    }

    @Test
    void shouldFailTheStreamWhenTheStagesRunFails() {
        IllegalStateException boom = new IllegalStateException("boom");
        try (PoolEvolution<Integer, Void> pool = new PoolEvolution<>(
                2,
                (pf, population, env) -> new ArrayList<>(population),
                (x, env, thread) -> {
                    throw boom;
                },
                (pf, population, evolved, env) -> evolved,
                (population, env) -> false)) {
            List<List<Integer>> populations = List.of(new ArrayList<>(List.of(1)));
            assertThatThrownBy(() -> new Pipeline(Node.source(populations), pool.stage(null), Node.sink(p -> {}))
                            .runAndWaitEnd())
                    .isInstanceOf(NodeFailedException.class)
                    .cause()
                    .isInstanceOf(PoolEvolutionException.class)
                    .hasMessageContaining("evolution")
                    .hasCause(boom);
        }
    }

    @Test
    void shouldCloseOnceAndRefuseRunsAfterClose() {
        PoolEvolution<Integer, Void> pool = new PoolEvolution<>(
                2, (pf, p, env) -> p, (x, env, thread) -> x, (pf, p, evolved, env) -> evolved, (p, env) -> true);
        pool.run(new ArrayList<>(List.of(1)), null);

        pool.close();
        pool.close();

        assertThatThrownBy(() -> pool.run(new ArrayList<>(List.of(1)), null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> pool.stage(null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void shouldRefuseFewerThanOneWorker() {
        for (int workers : new int[] {0, -3}) {
            assertThatThrownBy(() -> new PoolEvolution<Integer, Void>(
                            workers,
                            (pf, p, env) -> p,
                            (x, env, thread) -> x,
                            (pf, p, evolved, env) -> evolved,
                            (p, env) -> true))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("PoolEvolution(" + workers + " workers)");
        }
    }
}
