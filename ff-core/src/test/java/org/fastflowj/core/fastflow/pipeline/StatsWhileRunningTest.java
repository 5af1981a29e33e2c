package org.fastflowj.core.fastflow.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_stats.cpp: while pipe(source, farm(2 x Stage), sink) runs, the
 * program asks for its statistics again and again until the pipe is done; then they count every item.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class StatsWhileRunningTest {
    private static final int TASKS = 400;
    private static final int PAUSE_AT = TASKS / 2;

    static final class Source extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < TASKS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** Farm worker: replaces its task by 100 after a random delay (1-10 ms in C++, 10-100 us here). */
    static final class Stage extends Node<Long, Long> {
        private final Random random = new Random(1);

        @Override
        protected Long svc(Long in) {
            LockSupport.parkNanos(10_000 + random.nextInt(90_000));
            return 100L;
        }
    }

    static final class Pass extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    /** Sink: drops its items after a random delay; at item PAUSE_AT it waits until the test looked at the stats. */
    static final class Sink extends Node<Long, Void> {
        private final Random random = new Random(2);
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);
        final List<Long> received = new ArrayList<>();

        @Override
        protected Void svc(Long in) throws InterruptedException {
            received.add(in);
            if (received.size() == PAUSE_AT) {
                reached.countDown();
                resume.await(5, TimeUnit.SECONDS);
            }
            LockSupport.parkNanos(5_000 + random.nextInt(45_000));
            return goOn();
        }
    }

    private static final List<String> NODES = List.of(
            "ff-pipe1-stage0",
            "ff-farm1-emitter",
            "ff-farm1-worker0",
            "ff-farm1-worker1",
            "ff-farm1-collector",
            "ff-pipe1-stage2");

    private static NodeStats node(RunStats stats, String name) {
        return stats.node(name).orElseThrow(() -> new AssertionError("no stats for " + name + " in " + stats));
    }

    @Test
    void shouldReportStatisticsWhileRunningAndCountEveryItemAtTheEnd() throws InterruptedException {
        Sink sink = new Sink();
        // ff_Farm adds a default collector
        Pipeline pipe =
                new Pipeline(new Source(), Farm.of(new Stage(), new Stage()).collector(new Pass()), sink);
        pipe.run();

        assertThat(sink.reached.await(5, TimeUnit.SECONDS)).isTrue();
        RunStats midRun = pipe.stats(); // pipe.ffStats(std::cout) while running
        sink.resume.countDown();
        List<RunStats> polled = new ArrayList<>();
        while (!pipe.waitEnd(5, TimeUnit.MILLISECONDS)) { // while (!pipe.done())
            polled.add(pipe.stats());
        }
        RunStats done = pipe.stats();

        assertThat(midRun.nodes()).extracting(NodeStats::name).containsExactlyElementsOf(NODES);
        assertThat(node(midRun, "ff-pipe1-stage2").itemsIn()).isEqualTo(PAUSE_AT); // the sink is held in that item
        assertThat(polled)
                .allSatisfy(
                        s -> assertThat(s.nodes()).extracting(NodeStats::name).containsExactlyElementsOf(NODES));

        assertThat(done.nodes()).extracting(NodeStats::name).containsExactlyElementsOf(NODES);
        assertThat(node(done, "ff-pipe1-stage0").itemsOut()).isEqualTo(TASKS);
        assertThat(node(done, "ff-farm1-emitter").itemsIn()).isEqualTo(TASKS);
        assertThat(node(done, "ff-farm1-worker0").itemsIn()
                        + node(done, "ff-farm1-worker1").itemsIn())
                .isEqualTo(TASKS);
        assertThat(node(done, "ff-farm1-worker0").itemsOut()
                        + node(done, "ff-farm1-worker1").itemsOut())
                .isEqualTo(TASKS);
        assertThat(node(done, "ff-farm1-collector").itemsIn()).isEqualTo(TASKS);
        assertThat(node(done, "ff-pipe1-stage2").itemsIn()).isEqualTo(TASKS);
        assertThat(node(done, "ff-pipe1-stage2").itemsOut()).isZero();
        for (NodeStats n : done.nodes()) {
            assertThat(n.itemsIn())
                    .isGreaterThanOrEqualTo(node(midRun, n.name()).itemsIn());
            assertThat(n.blockedInputNanos()).isNotNegative();
            assertThat(n.svcNanos()).isNotNegative();
        }
        assertThat(sink.received).hasSize(TASKS).containsOnly(100L);
    }
}
