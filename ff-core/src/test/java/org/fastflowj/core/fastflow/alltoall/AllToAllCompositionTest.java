package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_all-to-all4.cpp to tests/test_all-to-all7.cpp: an all-to-all after another all-to-all or after a farm (no collector, multi-output collector, multi-output workers) gets every item, one-to-one where widths match. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AllToAllCompositionTest {

    /** Plain pass-through that records what it saw. */
    static final class Recorder extends Node<Long, Long> {
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            seen.add(in);
            return in;
        }
    }

    /** Multi-output pass-through that records what it saw. */
    static final class MoRecorder extends MultiOutputNode<Long, Long> {
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            seen.add(in);
            return in;
        }
    }

    static final class MiPass extends MultiInputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    /** Last R-Workers: record and emit nothing. */
    static final class Drain extends Node<Long, Void> {
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Void svc(Long in) {
            seen.add(in);
            return goOn();
        }
    }

    /** L-Worker of test_all-to-all4: 11 numbers from 10 * id + 1, number i to R-Worker i % 3. */
    static final class Generator extends MultiOutputNode<Void, Long> {
        @Override
        protected Long svc(Void none) {
            long start = id() * 10L + 1;
            for (long i = start; i < start + 11; i++) {
                sendOutTo(i, (int) (i % 3));
            }
            return eos();
        }
    }

    /** Emitter of test_all-to-all5/6: 1..100, number i to worker i % 3. */
    static final class ModuloEmitter extends MultiOutputNode<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= 100; i++) {
                sendOutTo(i, (int) (i % 3));
            }
            return eos();
        }
    }

    /** Emitter of test_all-to-all7: 1..100 by the default policy. */
    static final class Emitter extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= 100; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    private static <T> List<T> three(Supplier<T> factory) {
        return List.of(factory.get(), factory.get(), factory.get());
    }

    private static List<Long> allSeen(List<Drain> drains) {
        List<Long> all = new ArrayList<>();
        drains.forEach(d -> all.addAll(d.seen));
        return all;
    }

    private static List<Long> oneToHundredModulo(int k) {
        return LongStream.rangeClosed(1, 100).filter(i -> i % 3 == k).boxed().toList();
    }

    @Test
    void shouldConnectTwoAllToAllsOneToOneWhenTheMiddleWidthsMatch() {
        List<Recorder> filter1 = three(Recorder::new);
        List<MoRecorder> filter2 = three(MoRecorder::new);
        List<Drain> filter3 = List.of(new Drain(), new Drain());
        AllToAll first = new AllToAll()
                .firstSet(new Generator(), new Generator(), new Generator())
                .secondSet(filter1);
        AllToAll second = new AllToAll().firstSet(filter2).secondSet(filter3);
        new Pipeline(first, second).runAndWaitEnd();

        List<Long> all = new ArrayList<>();
        for (int g = 0; g < 3; g++) {
            LongStream.range(g * 10L + 1, g * 10L + 12).forEach(all::add);
        }
        for (int k = 0; k < 3; k++) {
            int cls = k;
            List<Long> expected = all.stream().filter(i -> i % 3 == cls).toList();
            assertThat(filter1.get(k).seen).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(filter2.get(k).seen).containsExactlyElementsOf(filter1.get(k).seen);
        }
        assertThat(allSeen(filter3)).containsExactlyInAnyOrderElementsOf(all);
    }

    @Test
    void shouldConnectAFarmWithoutCollectorToAnAllToAllOneToOne() {
        List<MoRecorder> filter1 = three(MoRecorder::new);
        List<Drain> filter2 = List.of(new Drain(), new Drain());
        Farm farm = Farm.of(3, Recorder::new).emitter(new ModuloEmitter());
        new Pipeline(farm, new AllToAll().firstSet(filter1).secondSet(filter2)).runAndWaitEnd();

        for (int k = 0; k < 3; k++) {
            assertThat(filter1.get(k).seen).containsExactlyElementsOf(oneToHundredModulo(k));
        }
        assertThat(allSeen(filter2))
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, 100).boxed().toList());
    }

    @Test
    void shouldFanOutFromAMultiOutputCollectorToTheAllToAll() {
        List<MoRecorder> filter1 = three(MoRecorder::new);
        List<Drain> filter2 = List.of(new Drain(), new Drain());
        Farm farm = Farm.of(3, Recorder::new).emitter(new ModuloEmitter()).collector(new MoRecorder());
        new Pipeline(farm, new AllToAll().firstSet(filter1).secondSet(filter2)).runAndWaitEnd();

        List<Long> throughFilter1 = new ArrayList<>();
        filter1.forEach(f -> throughFilter1.addAll(f.seen));
        List<Long> all = LongStream.rangeClosed(1, 100).boxed().toList();
        assertThat(throughFilter1).containsExactlyInAnyOrderElementsOf(all);
        assertThat(allSeen(filter2)).containsExactlyInAnyOrderElementsOf(all);
    }

    @Test
    void shouldShuffleFromMultiOutputWorkersToMultiInputLWorkers() {
        List<MoRecorder> filter1 = three(MoRecorder::new);
        List<Combiner<Long, Long>> lWorkers =
                filter1.stream().map(f -> Combiner.of(new MiPass(), f)).toList();
        List<Drain> filter2 = List.of(new Drain(), new Drain());
        Farm farm = Farm.of(3, MoRecorder::new).emitter(new Emitter());
        new Pipeline(farm, new AllToAll().firstSet(lWorkers).secondSet(filter2)).runAndWaitEnd();

        List<Long> throughFilter1 = new ArrayList<>();
        filter1.forEach(f -> throughFilter1.addAll(f.seen));
        List<Long> all = LongStream.rangeClosed(1, 100).boxed().toList();
        assertThat(throughFilter1).containsExactlyInAnyOrderElementsOf(all);
        assertThat(allSeen(filter2)).containsExactlyInAnyOrderElementsOf(all);
    }
}
