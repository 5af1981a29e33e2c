package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_farm+A2A2.cpp: a collector-less farm (plain or multi-output workers) feeding one or two all-to-alls (plain, combiner or multi-input members, equal or different widths) brings all ten tasks to a multi-input collector. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FarmIntoAllToAllTest {

    static final class Starter extends MultiOutputNode<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= 10; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    static final class Plain extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class MultiOut extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class MultiIn extends MultiInputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Collector extends MultiInputNode<Long, Void> {
        final List<Long> items = new ArrayList<>();
        final List<Integer> channels = new ArrayList<>();
        int inputs;

        @Override
        protected void svcInit() {
            inputs = inputChannels();
        }

        @Override
        protected Void svc(Long in) {
            items.add(in);
            channels.add(inputChannel());
            return goOn();
        }
    }

    private static List<BuildingBlock> times(int n, Supplier<BuildingBlock> factory) {
        List<BuildingBlock> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(factory.get());
        }
        return list;
    }

    private static Farm farm(int workers, Supplier<BuildingBlock> worker) {
        return Farm.of(times(workers, worker)).emitter(new Starter());
    }

    private static void assertCollected(Collector col, int rWorkers) {
        assertThat(col.inputs).isEqualTo(rWorkers);
        assertThat(col.items).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(col.channels).allSatisfy(c -> assertThat(c).isBetween(0, rWorkers - 1));
    }

    @Test
    void shouldCollectEveryTaskFromPlainWorkersIntoPlainLWorkers() {
        Collector col = new Collector();
        AllToAll a2a = new AllToAll().firstSet(times(3, Plain::new)).secondSet(new Plain(), new Plain());
        new Pipeline(farm(3, Plain::new), a2a, col).runAndWaitEnd();
        assertCollected(col, 2);
    }

    @Test
    void shouldCollectEveryTaskFromMultiOutputWorkersIntoPlainLWorkers() {
        Collector col = new Collector();
        AllToAll a2a = new AllToAll().firstSet(times(4, Plain::new)).secondSet(new Plain(), new Plain());
        new Pipeline(farm(4, MultiOut::new), a2a, col).runAndWaitEnd();
        assertCollected(col, 2);
    }

    @Test
    void shouldCollectEveryTaskFromFourMultiOutputWorkersIntoTwoCombinerLWorkers() {
        Collector col = new Collector();
        AllToAll a2a = new AllToAll()
                .firstSet(times(2, () -> Combiner.of(new MultiIn(), new MultiOut())))
                .secondSet(new Plain(), new Plain());
        new Pipeline(farm(4, MultiOut::new), a2a, col).runAndWaitEnd();
        assertCollected(col, 2);
    }

    @Test
    void shouldCollectEveryTaskThroughTwoAllToAllsOfPlainNodes() {
        Collector col = new Collector();
        AllToAll a2a1 = new AllToAll()
                .firstSet(times(2, () -> Combiner.of(new MultiIn(), new MultiOut())))
                .secondSet(new Plain(), new Plain());
        AllToAll a2a2 = new AllToAll().firstSet(new Plain(), new Plain()).secondSet(times(3, Plain::new));
        new Pipeline(farm(4, MultiOut::new), a2a1, a2a2, col).runAndWaitEnd();
        assertCollected(col, 3);
    }

    @Test
    void shouldCollectEveryTaskThroughTwoAllToAllsOfCombiners() {
        Collector col = new Collector();
        AllToAll a2a1 = new AllToAll()
                .firstSet(times(2, () -> Combiner.of(new MultiIn(), new MultiOut())))
                .secondSet(times(2, () -> Combiner.of(new MultiIn(), new MultiOut())));
        AllToAll a2a2 = new AllToAll()
                .firstSet(times(3, () -> Combiner.of(new MultiIn(), new MultiOut())))
                .secondSet(times(3, Plain::new));
        new Pipeline(farm(4, MultiOut::new), a2a1, a2a2, col).runAndWaitEnd();
        assertCollected(col, 3);
    }
}
