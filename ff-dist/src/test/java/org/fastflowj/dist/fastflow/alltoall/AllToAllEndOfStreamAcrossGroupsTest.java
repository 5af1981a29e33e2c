package org.fastflowj.dist.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.fastflow.DistributedPrograms;
import org.fastflowj.dist.fastflow.DistributedPrograms.AppendWorld;
import org.fastflowj.dist.fastflow.DistributedPrograms.HelloSource;
import org.fastflowj.dist.fastflow.DistributedPrograms.Log;
import org.fastflowj.dist.fastflow.DistributedPrograms.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/distributed/test_group10.cpp (test_complete3), test_group14.cpp (test_complete7)
 * and test_group20.cpp: tasks through a 3x1 all-to-all whose L-Workers add their id; each L-Worker is told of
 * its input's end once, the R-Worker once per L-Worker channel (not twice, not group-locally), and it gets every
 * task once, with t - seq = the id of the L-Worker that handled it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AllToAllEndOfStreamAcrossGroupsTest {
    private static final int TASKS = 1_000;

    /** L-Worker: adds its id to t and f, counts, and logs its eosNotify. */
    static final class Node3 extends MultiOutputNode<Task, Task> {
        private final Log log;

        Node3(Log log) {
            this.log = log;
        }

        @Override
        protected Task svc(Task t) {
            log.count("L" + id());
            return t.plus(id());
        }

        @Override
        protected void eosNotify(int channel) {
            log.event("L" + id(), "eos " + channel);
        }
    }

    static final class Node4 extends MultiInputNode<Task, Void> {
        private final Log log;
        final List<Task> received = new ArrayList<>();

        Node4(Log log) {
            this.log = log;
        }

        @Override
        protected Void svc(Task t) {
            received.add(t);
            log.count("R from " + inputChannel());
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            log.event("R" + id(), "eos " + channel);
        }
    }

    private interface Shape {
        Pipeline build(HelloSource n1, AppendWorld n2, AllToAll a2a, List<Node3> l, Node4 r, boolean grouped);
    }

    private static Log run(Shape shape, List<String> groups) throws Exception {
        Log log = new Log();
        List<Node3> l = List.of(new Node3(log), new Node3(log), new Node3(log));
        Node4 r = new Node4(log);
        AllToAll a2a = new AllToAll().firstSet(l).secondSet(r);
        Pipeline root = shape.build(new HelloSource(TASKS), new AppendWorld(), a2a, l, r, !groups.isEmpty());
        DistributedPrograms.run(root, "", groups);

        assertThat(r.received)
                .extracting(Task::seq)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, TASKS).boxed().toList());
        assertThat(r.received).allSatisfy(t -> {
            assertThat(t.str()).isEqualTo("Hello World");
            assertThat(t.t() - t.seq()).isBetween(0L, 2L);
        });
        for (int i = 0; i < 3; i++) {
            int id = i;
            long handled =
                    r.received.stream().filter(t -> t.t() - t.seq() == id).count();
            assertThat(handled).as("tasks of L" + i).isEqualTo(log.count("L" + i, 0));
            assertThat(log.count("R from " + i, 0)).isEqualTo(handled);
            assertThat(log.events.get("L" + i)).as("L" + i).containsExactly("eos -1");
        }
        assertThat(log.events.get("R0")).containsExactlyInAnyOrder("eos 0", "eos 1", "eos 2");
        return log;
    }

    private static void assertSameInOneProcessAndInGroups(Shape shape, String... groups) throws Exception {
        Log one = run(shape, List.of());
        Log grouped = run(shape, List.of(groups));
        assertThat(grouped.sortedEvents()).isEqualTo(one.sortedEvents());
    }

    /** test_group10: pipe0(n1, n2) in G1, the whole all-to-all in G2. */
    @Test
    void shouldNotifyEachChannelsEndOnceWithTheAllToAllAsOneGroup() throws Exception {
        assertSameInOneProcessAndInGroups(
                (n1, n2, a2a, l, r, grouped) -> {
                    Pipeline pipe0 = new Pipeline(n1, n2);
                    if (grouped) {
                        pipe0.createGroup("G1");
                        a2a.createGroup("G2");
                    }
                    return new Pipeline(pipe0, a2a);
                },
                "G1",
                "G2");
    }

    /** test_group14: n1 in G1, the L-Workers in G2, the R-Worker in G3 (here n2 goes with n1). */
    @Test
    void shouldNotifyEachChannelsEndOnceAcrossAVerticalCut() throws Exception {
        assertSameInOneProcessAndInGroups(
                (n1, n2, a2a, l, r, grouped) -> {
                    Pipeline pipe0 = new Pipeline(n1, n2);
                    if (grouped) {
                        pipe0.createGroup("G1");
                        a2a.createGroup("G2")
                                .include(l.get(0))
                                .include(l.get(1))
                                .include(l.get(2));
                        a2a.createGroup("G3").include(r);
                    }
                    return new Pipeline(pipe0, a2a);
                },
                "G1",
                "G2",
                "G3");
    }

    /** test_group20: a flat pipeline (n1, n2, a2a) split from the root: G1 = {n1, n2}, G2 = {a2a}. */
    @Test
    void shouldNotifyEachChannelsEndOnceWhenTheRootPipelineIsSplitByInclude() throws Exception {
        assertSameInOneProcessAndInGroups(
                (n1, n2, a2a, l, r, grouped) -> {
                    Pipeline pipe = new Pipeline(n1, n2, a2a);
                    if (grouped) {
                        pipe.createGroup("G1").include(n1).include(n2);
                        pipe.createGroup("G2").include(a2a);
                    }
                    return pipe;
                },
                "G1",
                "G2");
    }
}
