package org.fastflowj.patterns.fastflow.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The population and the four functions shared by FastFlow's tests/test_pool1.cpp and test_pool2.cpp, as
 * plain sequential code: the tests hand them to the pattern and also run them in a sequential loop.
 */
final class Elements {
    static final int MAX_MUTATIONS = 4;
    /** How many random elements the filter drops each round. */
    static final int K = 2;

    private Elements() {}

    /** An individual; a value, as the C++ struct is, so an evolved copy leaves the population's one alone. */
    record Element(long number, int mutations) {
        Element(long number) {
            this(number, 0);
        }
    }

    /** C++ {@code random()}: 31 random bits. */
    static long nextRandom(Random random) {
        return random.nextInt() & Integer.MAX_VALUE;
    }

    static List<Element> buildPopulation(Random random, int size) {
        List<Element> population = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            population.add(new Element(nextRandom(random)));
        }
        return population;
    }

    /** Goes on while some odd element has fewer than MAX_MUTATIONS mutations. */
    static boolean termination(List<Element> population) {
        for (Element e : population) {
            if (e.mutations() < MAX_MUTATIONS && (e.number() & 1) == 1) {
                return false;
            }
        }
        return true;
    }

    /** The first half of the population. */
    static List<Element> selection(List<Element> population) {
        return new ArrayList<>(population.subList(0, population.size() / 2));
    }

    static Element evolution(Element individual) {
        return new Element(individual.number() + individual.number() / 2, individual.mutations() + 1);
    }

    /**
     * The current population without K random elements (none left if it has fewer than K). As in the C++,
     * the next population is made from the current one, so the evolved candidates are dropped.
     */
    static List<Element> filter(List<Element> population, Random random) {
        if (population.size() < K) {
            return new ArrayList<>();
        }
        List<Element> next = new ArrayList<>(population);
        for (int k = 0; k < K; k++) {
            next.remove((int) (nextRandom(random) % next.size()));
        }
        return next;
    }

    /**
     * The evolution as a sequential loop of the same functions; every round's evolved candidates go into
     * {@code evolvedByRound}.
     */
    static List<Element> evolveSequentially(List<Element> initial, Random random, List<List<Element>> evolvedByRound) {
        List<Element> population = new ArrayList<>(initial);
        while (!termination(population)) {
            List<Element> candidates = selection(population);
            candidates.replaceAll(Elements::evolution);
            evolvedByRound.add(List.copyOf(candidates));
            population = filter(population, random);
        }
        return population;
    }
}
