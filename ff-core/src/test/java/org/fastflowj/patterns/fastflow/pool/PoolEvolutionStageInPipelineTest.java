package org.fastflowj.patterns.fastflow.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.patterns.PoolEvolution;
import org.fastflowj.patterns.fastflow.pool.Elements.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_pool2.cpp: the pattern of test_pool1 as the middle stage of a
 * pipeline, between a source that builds STREAMLENGTH = 10 populations of random sizes below 500 and a sink
 * that takes them. Every population comes out of the stage evolved in place, in order, as a sequential
 * loop of the same functions evolves it. The C++ filter draws from the same global random() as the source,
 * from another thread; here it has a seeded Random of its own, so the result can be checked.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PoolEvolutionStageInPipelineTest {
    private static final int STREAM_LENGTH = 10;
    private static final int MAX_SIZE = 500;

    /** The populations of the source, in order, from {@code random}. */
    static List<List<Element>> populations(Random random) {
        List<List<Element>> populations = new ArrayList<>();
        for (int i = 0; i < STREAM_LENGTH; i++) {
            populations.add(Elements.buildPopulation(random, (int) (Elements.nextRandom(random) % MAX_SIZE)));
        }
        return populations;
    }

    /** BuildPop: sends its populations from one call, as ff_send_out does, and keeps them for the test. */
    static final class BuildPop extends Node<Void, List<Element>> {
        final List<List<Element>> sent = new ArrayList<>();

        @Override
        protected List<Element> svc(Void none) {
            sent.addAll(populations(new Random(10))); // srandom(10) in svc_init
            for (List<Element> population : sent) {
                sendOut(population);
            }
            return eos();
        }
    }

    @Test
    void shouldEvolveEveryPopulationOfTheStreamInPlaceAndInOrder() {
        BuildPop source = new BuildPop();
        List<List<Element>> received = new ArrayList<>();
        try (PoolEvolution<Element, Random> pool = new PoolEvolution<>(
                3,
                (pf, p, random) -> Elements.selection(p),
                (individual, random, thread) -> Elements.evolution(individual),
                (pf, p, evolved, random) -> Elements.filter(p, random),
                (p, random) -> Elements.termination(p))) {
            new Pipeline(source, pool.stage(new Random(11)), Node.<List<Element>>sink(received::add)).runAndWaitEnd();
        }

        Random filterRandom = new Random(11);
        List<List<Element>> expected = new ArrayList<>();
        for (List<Element> initial : populations(new Random(10))) {
            expected.add(Elements.evolveSequentially(initial, filterRandom, new ArrayList<>()));
        }
        assertThat(received).hasSize(STREAM_LENGTH).isEqualTo(expected);
        for (int i = 0; i < STREAM_LENGTH; i++) {
            assertThat(received.get(i)).as("population %d", i).isSameAs(source.sent.get(i));
            assertThat(Elements.termination(received.get(i))).isTrue();
        }
        // each population that had an odd element went through rounds, each dropping K elements
        List<List<Element>> initial = populations(new Random(10));
        for (int i = 0; i < STREAM_LENGTH; i++) {
            if (!Elements.termination(initial.get(i))) {
                assertThat(received.get(i))
                        .as("population %d", i)
                        .hasSizeLessThan(initial.get(i).size());
            }
        }
    }
}
