package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.testing.FfTestNodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_combine9.cpp: a one-worker farm whose collector is a combiner of two filters passes 1..10 through both filters and on to the next stage, in order. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class CombinerAsCollectorTest {

    static final class Emitter extends MultiOutputNode<Void, Long> {
        @Override
        protected Long svc(Void none) {
            int n = outputChannels();
            for (long i = 1; i <= 10; i++) {
                sendOutTo(i, (int) (i % n));
            }
            return eos();
        }
    }

    static final class Filter extends Node<Long, Long> {
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            seen.add(in);
            return in;
        }
    }

    @Test
    void shouldPassEveryItemThroughBothFusedFiltersInOrder() {
        Filter f1 = new Filter();
        Filter f2 = new Filter();
        FfTestNodes.Record gatherer = new FfTestNodes.Record();
        Farm farm = Farm.of(new FfTestNodes.Identity()).emitter(new Emitter()).collector(Combiner.of(f1, f2));
        new Pipeline(farm, gatherer).runAndWaitEnd();

        List<Long> expected = List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(f1.seen).containsExactlyElementsOf(expected);
        assertThat(f2.seen).containsExactlyElementsOf(expected);
        assertThat(gatherer.items).containsExactlyElementsOf(expected);
    }
}
