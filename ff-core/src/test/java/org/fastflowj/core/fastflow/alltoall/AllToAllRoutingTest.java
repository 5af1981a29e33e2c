package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_all-to-all2.cpp and tests/test_all-to-all3.cpp: routers send even numbers to R-Worker 0 and odd ones to R-Worker 1, which emit their sums at end of stream. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AllToAllRoutingTest {
    private static final long[] VALUES = {13, 17, 14, 27, 31, 6, 8, 4, 26, 31, 105, 238, 47, 48};
    /** Router chosen for each value by the multi-output generator of test_all-to-all3. */
    private static final int[] ROUTER = {0, 0, 1, 1, 1, 2, 0, 1, 2, 2, 0, 1, 2, 2};

    private static final long EVEN_SUM = 344;
    private static final long ODD_SUM = 271;

    /** Plain generator (test_all-to-all2: the farm's emitter). */
    static final class Generator extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long v : VALUES) {
                sendOut(v);
            }
            return eos();
        }
    }

    /** Multi-output generator choosing the router of each value (test_all-to-all3). */
    static final class RoutingGenerator extends MultiOutputNode<Void, Long> {
        int outputs;

        @Override
        protected Long svc(Void none) {
            outputs = outputChannels();
            for (int i = 0; i < VALUES.length; i++) {
                sendOutTo(VALUES[i], ROUTER[i]);
            }
            return eos();
        }
    }

    static final class Router extends MultiOutputNode<Long, Long> {
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            seen.add(in);
            sendOutTo(in, in % 2 == 0 ? 0 : 1);
            return goOn();
        }
    }

    /** Even and Odd of the programs: sums its input, emits the sum when its input ends. */
    static final class Summer extends Node<Long, Long> {
        private long sum;

        @Override
        protected Long svc(Long in) {
            sum += in;
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            sendOut(sum);
        }
    }

    static final class Sink extends MultiInputNode<Long, Void> {
        final Map<Integer, List<Long>> perChannel = new TreeMap<>();
        final List<Long> all = new ArrayList<>();

        @Override
        protected Void svc(Long in) {
            perChannel.computeIfAbsent(inputChannel(), c -> new ArrayList<>()).add(in);
            all.add(in);
            return goOn();
        }
    }

    @Test
    void shouldSumEvensAndOddsInPipelineOfGeneratorAllToAllAndSink() {
        RoutingGenerator generator = new RoutingGenerator();
        List<Router> routers = List.of(new Router(), new Router(), new Router());
        Sink sink = new Sink();
        AllToAll a2a = new AllToAll().firstSet(routers).secondSet(new Summer(), new Summer());
        new Pipeline(generator, a2a, sink).runAndWaitEnd();

        assertThat(generator.outputs).isEqualTo(3);
        for (int r = 0; r < 3; r++) {
            List<Long> expected = new ArrayList<>();
            for (int i = 0; i < VALUES.length; i++) {
                if (ROUTER[i] == r) {
                    expected.add(VALUES[i]);
                }
            }
            assertThat(routers.get(r).seen).containsExactlyElementsOf(expected);
        }
        assertThat(sink.perChannel).containsExactly(Map.entry(0, List.of(EVEN_SUM)), Map.entry(1, List.of(ODD_SUM)));
    }

    @Test
    void shouldSumEvensAndOddsInFarmWhoseWorkerIsAnAllToAll() {
        List<Router> routers = List.of(new Router(), new Router(), new Router());
        AllToAll a2a = new AllToAll().firstSet(routers).secondSet(new Summer(), new Summer());
        Sink sink = new Sink();
        Farm.of(a2a).emitter(new Generator()).collector(sink).runAndWaitEnd();

        assertThat(sink.all).containsExactlyInAnyOrder(EVEN_SUM, ODD_SUM);
        List<Long> routed = new ArrayList<>();
        routers.forEach(r -> routed.addAll(r.seen));
        assertThat(routed)
                .containsExactlyInAnyOrder(13L, 17L, 14L, 27L, 31L, 6L, 8L, 4L, 26L, 31L, 105L, 238L, 47L, 48L);
    }
}
