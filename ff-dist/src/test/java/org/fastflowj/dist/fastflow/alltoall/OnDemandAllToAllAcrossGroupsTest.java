package org.fastflowj.dist.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.fastflow.DistributedPrograms;
import org.fastflowj.dist.fastflow.DistributedPrograms.Log;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/distributed/test_a2aOnDemand.cpp: a generator (G0) feeds on-demand L-Workers
 * (G1) whose R-Workers (G2) take 1 ms and 4 ms per item; every item is processed once, and the faster R-Worker,
 * asking for work more often, processes more of them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OnDemandAllToAllAcrossGroupsTest {
    private static final int ITEMS = 120;
    private static final long FAST_WORKER_WAIT_SECONDS = 5;

    record Data(long x, long y) {}

    static final class Generator extends MultiOutputNode<Void, Data> {
        @Override
        protected Data svc(Void none) {
            for (long i = 0; i < ITEMS; i++) {
                sendOut(new Data(i, i + 1));
            }
            return eos();
        }
    }

    static final class MoNode extends MultiOutputNode<Data, Data> {
        private final Log log;

        MoNode(Log log) {
            this.log = log;
        }

        @Override
        protected Data svc(Data in) {
            log.count("L" + id());
            return in;
        }
    }

    static final class MiNode extends MultiInputNode<Data, Void> {
        private final Log log;
        private final Map<Long, Long> seen;
        /** Counted down by R0 per item: R1 holds its first item until R0 has done more than half. */
        private final CountDownLatch fastWorkerAhead;

        MiNode(Log log, Map<Long, Long> seen, CountDownLatch fastWorkerAhead) {
            this.log = log;
            this.seen = seen;
            this.fastWorkerAhead = fastWorkerAhead;
        }

        @Override
        protected Void svc(Data in) throws InterruptedException {
            // A fast and a slow R-Worker, as in the FastFlow test (1 ms and 4 ms). Sleeps alone do not make
            // R1 slower on a loaded machine, where both round up to the same tick: R1 also waits, bounded,
            // until R0 has processed more than half of the items, so on-demand must give R0 the majority
            // unless R1 got more than its window before it finished anything (then R1 waits out the bound
            // and the split is even).
            if (id() == 1 && log.count("R1", 0) == 0) {
                fastWorkerAhead.await(FAST_WORKER_WAIT_SECONDS, TimeUnit.SECONDS);
            }
            Thread.sleep(id() == 0 ? 1 : 4);
            log.count("R" + id());
            seen.merge(in.x(), 1L, Long::sum);
            assertThat(in.y()).isEqualTo(in.x() + 1);
            if (id() == 0) {
                fastWorkerAhead.countDown();
            }
            return goOn();
        }
    }

    /** Runs the program; returns {items of R0, items of R1}. */
    private static long[] run(boolean grouped) throws Exception {
        Log log = new Log();
        Map<Long, Long> seen = new ConcurrentHashMap<>();
        Generator generator = new Generator();
        List<MoNode> l = List.of(new MoNode(log), new MoNode(log));
        CountDownLatch fastWorkerAhead = new CountDownLatch(ITEMS / 2 + 1);
        List<MiNode> r = List.of(new MiNode(log, seen, fastWorkerAhead), new MiNode(log, seen, fastWorkerAhead));
        AllToAll a2a = new AllToAll().firstSet(l).secondSet(r).onDemand();
        Pipeline main = new Pipeline(generator, a2a);
        if (grouped) {
            generator.createGroup("G0");
            a2a.createGroup("G1").include(l.get(0)).include(l.get(1));
            a2a.createGroup("G2").include(r.get(0)).include(r.get(1));
        }
        DistributedPrograms.run(main, "", grouped ? List.of("G0", "G1", "G2") : List.of());

        assertThat(seen.keySet())
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, ITEMS).boxed().toList());
        assertThat(seen.values()).allMatch(n -> n == 1);
        assertThat(log.count("L0", 0) + log.count("L1", 0)).isEqualTo(ITEMS);
        assertThat(log.count("R0", 0) + log.count("R1", 0)).isEqualTo(ITEMS);
        return new long[] {log.count("R0", 0), log.count("R1", 0)};
    }

    @Test
    void shouldProcessEveryItemOnceInOneProcessAndAcrossGroups() throws Exception {
        long[] one = run(false);
        assertThat(one[0]).as("items of the 1 ms R-Worker in one process").isGreaterThan(one[1]);
        run(true);
    }

    /**
     * Across groups a remote R-Worker holds at most its window of items, one or two slots' worth (counted
     * until the receiving group reports that the worker took them), so the L-Workers' dispatch gives the
     * faster worker more, as in one process. Without that bound, the 120 items went out round-robin (often
     * exactly 60/60) before either worker had finished its first.
     */
    @Test
    void shouldGiveTheFasterRemoteRWorkerMoreItems() throws Exception {
        for (int i = 0; i < 3; i++) {
            long[] grouped = run(true);
            assertThat(grouped[0])
                    .as("items of the 1 ms R-Worker across groups")
                    .isGreaterThan(grouped[1]);
        }
    }
}
