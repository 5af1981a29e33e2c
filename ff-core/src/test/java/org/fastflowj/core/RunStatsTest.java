package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.core.StreamFixtures.source;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.StreamFixtures.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** After a run, stats() tells per node thread how many items went in and out and where it waited. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RunStatsTest {

    private static NodeStats node(RunStats stats, String name) {
        return stats.node(name).orElseThrow(() -> new AssertionError("no stats for " + name + " in " + stats));
    }

    @Test
    void shouldCountItemsInAndOutPerNode() {
        Node<Integer, Integer> evensOnly = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                return in % 2 == 0 ? in : goOn();
            }
        };
        Node<Integer, Integer> triple = new Node<>() {
            @Override
            protected Integer svc(Integer in) {
                sendOut(in);
                sendOut(in);
                return in;
            }
        };
        Pipeline pipe = new Pipeline(source(100), evensOnly, triple, new Sink<Integer>());

        pipe.runAndWaitEnd();
        RunStats stats = pipe.stats();

        assertThat(stats.nodes())
                .extracting(NodeStats::name)
                .containsExactly("ff-pipe1-stage0", "ff-pipe1-stage1", "ff-pipe1-stage2", "ff-pipe1-stage3");
        assertThat(node(stats, "ff-pipe1-stage0").itemsIn()).isZero();
        assertThat(node(stats, "ff-pipe1-stage0").itemsOut()).isEqualTo(100);
        assertThat(node(stats, "ff-pipe1-stage1").itemsIn()).isEqualTo(100);
        assertThat(node(stats, "ff-pipe1-stage1").itemsOut()).isEqualTo(50);
        assertThat(node(stats, "ff-pipe1-stage2").itemsIn()).isEqualTo(50);
        assertThat(node(stats, "ff-pipe1-stage2").itemsOut()).isEqualTo(150);
        assertThat(node(stats, "ff-pipe1-stage3").itemsIn()).isEqualTo(150);
        assertThat(node(stats, "ff-pipe1-stage3").itemsOut()).isZero();
        for (NodeStats n : stats.nodes()) {
            assertThat(n.svcNanos()).isNotNegative();
            assertThat(n.blockedInputNanos()).isNotNegative();
            assertThat(n.blockedOutputNanos()).isNotNegative();
            assertThat(n.cpu()).as("no thread mapping asked").isEqualTo(-1);
        }
    }

    @Test
    void shouldCountItemsAcrossAFarm() {
        Farm farm = Farm.of(3, () -> Node.of((Integer x) -> x)).collector(Node.of((Integer x) -> x));
        Pipeline pipe = new Pipeline(source(300), farm, new Sink<Integer>());

        pipe.runAndWaitEnd();
        RunStats stats = pipe.stats();

        assertThat(node(stats, "ff-farm1-emitter").itemsIn()).isEqualTo(300);
        assertThat(node(stats, "ff-farm1-emitter").itemsOut()).isEqualTo(300);
        long workersIn = 0;
        long workersOut = 0;
        for (int w = 0; w < 3; w++) {
            workersIn += node(stats, "ff-farm1-worker" + w).itemsIn();
            workersOut += node(stats, "ff-farm1-worker" + w).itemsOut();
        }
        assertThat(workersIn).isEqualTo(300);
        assertThat(workersOut).isEqualTo(300);
        assertThat(node(stats, "ff-farm1-collector").itemsIn()).isEqualTo(300);
        assertThat(node(stats, "ff-farm1-collector").itemsOut()).isEqualTo(300);
        assertThat(node(stats, "ff-pipe1-stage2").itemsIn()).isEqualTo(300);
    }

    @Test
    void shouldCountBroadcastItemsOncePerChannel() {
        MultiOutputNode<Void, Integer> broadcaster = new MultiOutputNode<>() {
            private int next;

            @Override
            protected Integer svc(Void none) {
                if (next == 10) {
                    return eos();
                }
                broadcast(next++);
                return goOn();
            }
        };
        AllToAll a2a = new AllToAll().firstSet(broadcaster).secondSet(new Sink<Integer>(), new Sink<Integer>());

        a2a.runAndWaitEnd();

        assertThat(node(a2a.stats(), "ff-a2a1-L0").itemsOut()).isEqualTo(20);
        assertThat(node(a2a.stats(), "ff-a2a1-R0").itemsIn()).isEqualTo(10);
        assertThat(node(a2a.stats(), "ff-a2a1-R1").itemsIn()).isEqualTo(10);
    }

    @Test
    void shouldListEveryNodeInTheTable() {
        Farm farm = Farm.of(2, () -> Node.of((Integer x) -> x)).collector(Node.of((Integer x) -> x));
        Pipeline pipe = new Pipeline(source(10), farm, new Sink<Integer>());

        pipe.runAndWaitEnd();
        String table = pipe.stats().toTable();

        assertThat(table)
                .contains(
                        "ff-pipe1-stage0",
                        "ff-farm1-emitter",
                        "ff-farm1-worker0",
                        "ff-farm1-worker1",
                        "ff-farm1-collector",
                        "ff-pipe1-stage2");
        assertThat(table.lines().count())
                .as("a header and one row per node")
                .isEqualTo(1 + pipe.stats().nodes().size());
        assertThat(table.lines()
                        .filter(l -> l.startsWith("ff-pipe1-stage0"))
                        .findFirst()
                        .orElseThrow())
                .contains(" 10 ");
    }

    @Test
    void shouldShowInputWaitOfASinkFedByASlowProducer() {
        Node<Void, Integer> slow = new Node<>() {
            private int next;

            @Override
            protected Integer svc(Void none) throws InterruptedException {
                Thread.sleep(2); // the slow producer under test
                return next < 20 ? Integer.valueOf(next++) : eos();
            }
        };
        Pipeline pipe = new Pipeline(slow, new Sink<Integer>());

        pipe.runAndWaitEnd();

        NodeStats sink = node(pipe.stats(), "ff-pipe1-stage1");
        assertThat(sink.itemsIn()).isEqualTo(20);
        assertThat(sink.blockedInputNanos()).isPositive();
    }

    @Test
    void shouldShowOutputWaitOfAProducerFeedingASlowConsumer() {
        Node<Integer, Void> slow = new Node<>() {
            @Override
            protected Void svc(Integer in) throws InterruptedException {
                Thread.sleep(1); // the slow consumer under test
                return goOn();
            }
        };
        Pipeline pipe = new Pipeline(source(30), slow);

        pipe.runAndWaitEnd(RunOptions.defaults().queueCapacity(1));

        NodeStats producer = node(pipe.stats(), "ff-pipe1-stage0");
        assertThat(producer.itemsOut()).isEqualTo(30);
        assertThat(producer.blockedOutputNanos()).isPositive();
    }

    @Test
    void shouldRefuseStatsBeforeTheFirstRun() {
        Pipeline pipe = new Pipeline(source(1), new Sink<Integer>());

        assertThatThrownBy(pipe::stats).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldReportStatsOfTheLastRun() {
        Node<Void, Integer> src = new Node<>() {
            private int runs;
            private int next;
            private int limit;

            @Override
            protected void svcInit() {
                runs++;
                next = 0;
                limit = runs == 1 ? 5 : 8;
            }

            @Override
            protected Integer svc(Void none) {
                return next < limit ? Integer.valueOf(next++) : eos();
            }
        };
        Pipeline pipe = new Pipeline(src, new Sink<Integer>());

        pipe.runAndWaitEnd();
        pipe.runAndWaitEnd();

        assertThat(node(pipe.stats(), "ff-pipe1-stage1").itemsIn()).isEqualTo(8);
    }
}
