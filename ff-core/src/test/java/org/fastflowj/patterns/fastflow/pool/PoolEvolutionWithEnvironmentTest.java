package org.fastflowj.patterns.fastflow.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.fastflowj.patterns.ParallelFor;
import org.fastflowj.patterns.PoolEvolution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_pool3.cpp: a population of random numbers below 10 000 000 and an
 * environment (average, iterations) that selection and filter update. Selection computes the average with
 * a parallel reduction and picks the numbers above it with a parallel loop that fills one buffer per
 * worker; evolution makes odd numbers even and even ones odd; the filter sets the average of the evolved
 * numbers, counts the iteration and keeps the evolved numbers as the next population; the evolution ends
 * at 2 numbers or fewer, an average below 100, or after 50 iterations. The environment read back after the
 * run, and the population, are those of a sequential loop. The C++ busy-waits that stand for work are left
 * out.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PoolEvolutionWithEnvironmentTest {

    static final class Env {
        long avg;
        long iter;

        Env(long avg, long iter) {
            this.avg = avg;
            this.iter = iter;
        }
    }

    static List<Long> buildPopulation(Random random, int size) {
        List<Long> population = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            population.add(Elements.nextRandom(random) % 10_000_000);
        }
        return population;
    }

    /** The average; 0 for no numbers (the C++ divides by zero), which ends the evolution. */
    static long fitness(ParallelFor pf, List<Long> p) {
        long sum = pf.reduceLong(0, p.size(), 1, 0, 0L, (s, i) -> s + p.get((int) i), Long::sum);
        return p.isEmpty() ? 0 : sum / p.size();
    }

    static List<Long> selection(ParallelFor pf, List<Long> p, Env env) {
        env.avg = fitness(pf, p);
        long avg = env.avg;
        List<List<Long>> bufferPool = new ArrayList<>();
        for (int w = 0; w < pf.workers(); w++) {
            bufferPool.add(new ArrayList<>());
        }
        pf.parallelForIdx(0, p.size(), 1, 0, (start, stop, thread) -> {
            List<Long> buffer = bufferPool.get(Math.max(thread, 0)); // -1: the whole loop on the caller
            for (long j = start; j < stop; j++) {
                if (p.get((int) j) > avg) {
                    buffer.add(p.get((int) j));
                }
            }
        });
        List<Long> selected = new ArrayList<>();
        bufferPool.forEach(selected::addAll); // static blocks in worker order: index order
        return selected;
    }

    static long evolution(long element) {
        return (element & 1) == 1 ? element + 1 : element - 1;
    }

    static List<Long> filter(ParallelFor pf, List<Long> buffer, Env env) {
        env.avg = fitness(pf, buffer);
        env.iter += 1;
        return buffer;
    }

    static boolean termination(List<Long> p, Env env) {
        return p.size() <= 2 || env.avg < 100 || env.iter > 50;
    }

    /** The same evolution as plain loops. */
    static List<Long> evolveSequentially(List<Long> initial, Env env) {
        List<Long> p = new ArrayList<>(initial);
        while (!termination(p, env)) {
            env.avg = average(p);
            List<Long> next = new ArrayList<>();
            for (long x : p) {
                if (x > env.avg) {
                    next.add(evolution(x));
                }
            }
            env.avg = average(next);
            env.iter += 1;
            p = next;
        }
        return p;
    }

    private static long average(List<Long> p) {
        long sum = 0;
        for (long x : p) {
            sum += x;
        }
        return p.isEmpty() ? 0 : sum / p.size();
    }

    @Test
    void shouldLeaveTheEnvironmentAndPopulationOfTheSequentialLoop() {
        List<Long> initial = buildPopulation(new Random(10), 100_000);
        List<Long> population = new ArrayList<>(initial);
        Env env = new Env(1_000_000, 0);

        try (PoolEvolution<Long, Env> pool = new PoolEvolution<>(
                3,
                PoolEvolutionWithEnvironmentTest::selection,
                (element, e, thread) -> evolution(element),
                (pf, p, evolved, e) -> filter(pf, evolved, e),
                PoolEvolutionWithEnvironmentTest::termination)) {
            pool.run(population, env);
        }

        Env expectedEnv = new Env(1_000_000, 0);
        List<Long> expected = evolveSequentially(initial, expectedEnv);
        assertThat(population).isEqualTo(expected);
        assertThat(env.iter).isEqualTo(expectedEnv.iter).isGreaterThan(5);
        assertThat(env.avg).isEqualTo(expectedEnv.avg);
        assertThat(termination(population, env)).isTrue();
    }
}
