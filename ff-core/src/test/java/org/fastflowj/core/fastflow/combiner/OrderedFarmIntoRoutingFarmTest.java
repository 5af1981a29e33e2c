package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Behaviour of FastFlow's tests/test_combine12.cpp: combine_ofarm_farm joins an ordered farm (its collector checks
 * it gets 1, 2, 3, ...) to a farm whose emitter sends task t to worker t % nworkers2, and each of those workers
 * checks it gets only its own residue.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class OrderedFarmIntoRoutingFarmTest {

    private static final int NWORKERS1 = 2;
    private static final int NWORKERS2 = 3;
    private static final long NTASKS = 1000;

    static final class Generator extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= NTASKS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** Slow on some tasks, so that the ordered farm's workers finish out of order. */
    static final class Worker1 extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            if (in % 7 == id()) {
                LockSupport.parkNanos(50_000);
            }
            return in;
        }
    }

    /** Checks, as the C++ one does, that task t arrives in order: t == 1, 2, 3, ... */
    static final class Collector1 extends Node<Long, Long> {
        final List<Long> got = new ArrayList<>();
        final List<Long> outOfOrder = new ArrayList<>();
        private long cnt = 1;

        @Override
        protected Long svc(Long in) {
            got.add(in);
            if (in != cnt++) {
                outOfOrder.add(in);
            }
            return in;
        }
    }

    static final class Emitter extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            sendOutTo(in, (int) (in % outputChannels()));
            return goOn();
        }
    }

    /** Records its tasks and the ones that are not its residue (in % nworkers != id()). */
    static final class Worker2 extends Node<Long, Long> {
        final List<Long> got = new ArrayList<>();
        final List<Long> wrong = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            got.add(in);
            if (in % NWORKERS2 != id()) {
                wrong.add(in);
            }
            return in;
        }
    }

    static final class Collector2 extends Node<Long, Void> {
        long count;

        @Override
        protected Void svc(Long in) {
            count++;
            return goOn();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = WaitStrategy.class,
            names = {"BACKOFF", "BLOCKING"})
    void shouldCollectInOrderThenRouteEachTaskToItsResidueWorker(WaitStrategy strategy) {
        List<Worker1> workers1 = new ArrayList<>();
        for (int i = 0; i < NWORKERS1; i++) {
            workers1.add(new Worker1());
        }
        List<Worker2> workers2 = new ArrayList<>();
        for (int i = 0; i < NWORKERS2; i++) {
            workers2.add(new Worker2());
        }
        Collector1 c1 = new Collector1();
        Collector2 c2 = new Collector2();
        // combine_ofarm_farm fuses farm1's ordering collector, Collector1 and farm2's Emitter in one node; here the
        // ordered farm keeps its collector thread (Collector1) and the Emitter is farm2's own
        new Pipeline(
                        Farm.of(workers1).emitter(new Generator()).collector(c1).ordered(),
                        Farm.of(workers2).emitter(new Emitter()).collector(c2))
                .runAndWaitEnd(RunOptions.defaults().waitStrategy(strategy));

        List<Long> all = LongStream.rangeClosed(1, NTASKS).boxed().toList();
        assertThat(c1.outOfOrder).isEmpty();
        assertThat(c1.got).containsExactlyElementsOf(all);
        for (int j = 0; j < NWORKERS2; j++) {
            int worker = j;
            assertThat(workers2.get(j).wrong).as("Worker2 %d wrong inputs", j).isEmpty();
            assertThat(workers2.get(j).got)
                    .as("Worker2 %d", j)
                    .containsExactlyElementsOf(
                            all.stream().filter(t -> t % NWORKERS2 == worker).toList());
        }
        assertThat(c2.count).isEqualTo(NTASKS);
    }
}
