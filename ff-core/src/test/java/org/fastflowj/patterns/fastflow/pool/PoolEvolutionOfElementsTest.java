package org.fastflowj.patterns.fastflow.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.fastflowj.patterns.PoolEvolution;
import org.fastflowj.patterns.fastflow.pool.Elements.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_pool1.cpp: 3 workers evolve a population of 500 random elements
 * (number, mutations). Selection takes the first half, evolution adds half the number and counts a
 * mutation, and the filter makes the next population by dropping K = 2 random elements of the current one
 * (the evolved candidates are dropped, as in the C++); the evolution ends when no odd element with fewer
 * than MAXMUTATIONS = 4 mutations remains. With the same seed, the final population and every round's
 * evolved candidates are those of a sequential loop of the same functions.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PoolEvolutionOfElementsTest {

    /** The environment: the filter's random numbers (C++ {@code random()}) and what the test records. */
    static final class Run {
        final Random random;
        final List<List<Element>> evolvedByRound = new ArrayList<>();

        Run(Random random) {
            this.random = random;
        }
    }

    @Test
    void shouldEndWithThePopulationOfTheSequentialLoop() {
        Random random = new Random(10); // srandom(10)
        List<Element> population = Elements.buildPopulation(random, 500);
        List<Element> initial = List.copyOf(population);
        Run run = new Run(random);

        try (PoolEvolution<Element, Run> pool = new PoolEvolution<>(
                3,
                (pf, p, env) -> Elements.selection(p),
                (individual, env, thread) -> Elements.evolution(individual),
                (pf, p, evolved, env) -> {
                    env.evolvedByRound.add(List.copyOf(evolved));
                    return Elements.filter(p, env.random);
                },
                (p, env) -> Elements.termination(p))) {
            pool.run(population, run);
        }

        Random sequentialRandom = new Random(10);
        assertThat(Elements.buildPopulation(sequentialRandom, 500)).isEqualTo(initial);
        List<List<Element>> evolvedByRound = new ArrayList<>();
        List<Element> expected = Elements.evolveSequentially(initial, sequentialRandom, evolvedByRound);

        assertThat(population).isEqualTo(expected);
        assertThat(Elements.termination(population)).isTrue();
        assertThat(run.evolvedByRound).hasSizeGreaterThan(10).isEqualTo(evolvedByRound);
        assertThat(run.evolvedByRound.get(0)).hasSize(250).allSatisfy(e -> assertThat(e.mutations())
                .isEqualTo(1));
    }
}
