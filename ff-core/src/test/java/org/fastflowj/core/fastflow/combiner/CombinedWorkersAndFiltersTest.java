package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.testing.FfTestNodes.Identity;
import org.fastflowj.core.testing.FfTestNodes.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_combine2.cpp: farm workers that are combiners, after a routing emitter,
 * followed by a combiner of a multi-input and a plain node that sees which worker each item came from.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CombinedWorkersAndFiltersTest {

    /** Sends 1..100, item i to worker i % n. */
    static final class ByModulo extends MultiOutputNode<Void, Long> {
        @Override
        protected Long svc(Void none) {
            int n = outputChannels();
            for (long i = 1; i <= 100; i++) {
                sendOutTo(i, (int) (i % n));
            }
            return eos();
        }
    }

    /** Second half of a combined worker: records its id() and items. */
    static final class Worker2 extends Node<Long, Long> {
        final List<Long> got = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            got.add(in);
            return in;
        }
    }

    static final class ByChannel extends MultiInputNode<Long, Long> {
        final List<List<Long>> perChannel = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            while (perChannel.size() < inputChannels()) {
                perChannel.add(new ArrayList<>());
            }
            perChannel.get(inputChannel()).add(in);
            return in;
        }
    }

    @Test
    void shouldRouteByModuloThroughCombinedWorkersAndTellTheChannelAfterwards() {
        List<Worker2> seconds = new ArrayList<>();
        List<BuildingBlock> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Worker2 w = new Worker2();
            seconds.add(w);
            workers.add(Combiner.of(new Identity(), w));
        }
        ByChannel filter1 = new ByChannel();
        Record filter2 = new Record();
        new Pipeline(Farm.of(workers).emitter(new ByModulo()), Combiner.of(filter1, filter2)).runAndWaitEnd();

        for (int k = 0; k < 3; k++) {
            int worker = k;
            List<Long> mine = LongStream.rangeClosed(1, 100)
                    .filter(i -> i % 3 == worker)
                    .boxed()
                    .toList();
            assertThat(seconds.get(k).id())
                    .as("id of the node combined as worker %d", k)
                    .isEqualTo(k);
            assertThat(seconds.get(k).got).containsExactlyElementsOf(mine);
            assertThat(filter1.perChannel.get(k)).containsExactlyElementsOf(mine);
        }
        assertThat(filter2.items)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, 100).boxed().toList());
        assertThat(filter2.ended).isTrue();
    }
}
