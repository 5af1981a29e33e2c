package org.fastflowj.dist.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.fastflow.DistributedPrograms;
import org.fastflowj.dist.fastflow.DistributedPrograms.HelloSource;
import org.fastflowj.dist.fastflow.DistributedPrograms.Log;
import org.fastflowj.dist.fastflow.DistributedPrograms.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/distributed/test_group11.cpp (test_complete4), test_group12.cpp (test_complete5)
 * and test_group13.cpp (test_complete6): tasks through two all-to-all levels (Node2 appends " World" + its id,
 * Node3 adds its id), as a pipeline of two all-to-alls of combiners or one all-to-all between two nodes, cut
 * into up to six groups; the sink gets every task once and each task carries the ids of the nodes that
 * handled it, as counted by those nodes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PipelineOfAllToAllsTest {
    private static final int TASKS = 1_000;

    static final class Helper extends MultiInputNode<Task, Task> {
        @Override
        protected Task svc(Task t) {
            return t;
        }
    }

    /** Appends " World" and its id; counts what it handled. */
    static final class Node2 extends MultiOutputNode<Task, Task> {
        private final Log log;

        Node2(Log log) {
            this.log = log;
        }

        @Override
        protected Task svc(Task t) {
            log.count("Node2 " + id());
            return t.append(" World" + id());
        }
    }

    /** Adds its id to t and f; counts what it handled. */
    static final class Node3 extends MultiOutputNode<Task, Task> {
        private final Log log;

        Node3(Log log) {
            this.log = log;
        }

        @Override
        protected Task svc(Task t) {
            log.count("Node3 " + id());
            return t.plus(id());
        }
    }

    static final class Node4 extends MultiInputNode<Task, Void> {
        final List<Task> received = new ArrayList<>();
        final List<Integer> ends = new ArrayList<>();
        int inputs;

        @Override
        protected void svcInit() {
            inputs = inputChannels();
        }

        @Override
        protected Void svc(Task t) {
            received.add(t);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ends.add(channel);
        }
    }

    private static Map<String, Long> check(Log log, Node4 n4, int n2s, int n3s) {
        assertThat(n4.received)
                .extracting(Task::seq)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, TASKS).boxed().toList());
        Map<String, Long> handled = new TreeMap<>();
        for (Task t : n4.received) {
            assertThat(t.str()).startsWith("Hello World");
            handled.merge("Node2 " + t.str().substring("Hello World".length()), 1L, Long::sum);
            handled.merge("Node3 " + (t.t() - t.seq()), 1L, Long::sum);
            assertThat(t.f()).isEqualTo((float) t.t());
        }
        assertThat(handled).isEqualTo(new TreeMap<>(log.counts));
        assertThat(handled.keySet()).allMatch(k -> {
            int id = Integer.parseInt(k.substring(6));
            return id >= 0 && id < (k.startsWith("Node2") ? n2s : n3s);
        });
        assertThat(n4.inputs).isEqualTo(n4.ends.size());
        assertThat(n4.ends)
                .containsExactlyInAnyOrderElementsOf(
                        java.util.stream.IntStream.range(0, n4.inputs).boxed().toList());
        return handled.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> 0L));
    }

    /** test_group11 (two groups, one per all-to-all) and test_group12 (six groups). */
    private static Map<String, Long> twoAllToAlls(int n2s, boolean sixGroups, boolean grouped) throws Exception {
        Log log = new Log();
        HelloSource n1 = new HelloSource(TASKS);
        List<BuildingBlock> left = new ArrayList<>();
        List<BuildingBlock> right = new ArrayList<>();
        for (int i = 0; i < n2s; i++) {
            left.add(Combiner.of(new Helper(), new Node2(log)));
        }
        for (int i = 0; i < 3; i++) {
            right.add(Combiner.of(new Helper(), new Node3(log)));
        }
        Node4 n4 = new Node4();
        AllToAll a2a0 = new AllToAll().firstSet(n1).secondSet(left);
        AllToAll a2a1 = new AllToAll().firstSet(right).secondSet(n4);
        Pipeline pipe = new Pipeline(a2a0, a2a1);
        List<String> groups = List.of();
        if (grouped && sixGroups) {
            a2a0.createGroup("G1").include(n1);
            a2a0.createGroup("G2").include(left.get(0)).include(left.get(1));
            a2a0.createGroup("G3").include(left.get(2));
            a2a1.createGroup("G4").include(right.get(0));
            a2a1.createGroup("G5").include(right.get(1)).include(right.get(2));
            a2a1.createGroup("G6").include(n4);
            groups = List.of("G1", "G2", "G3", "G4", "G5", "G6");
        } else if (grouped) {
            a2a0.createGroup("G1");
            a2a1.createGroup("G2");
            groups = List.of("G1", "G2");
        }
        DistributedPrograms.run(pipe, "", groups);
        assertThat(n4.inputs).isEqualTo(3); // R-Worker of a2a1: one channel per L-Worker
        return check(log, n4, n2s, 3);
    }

    @Test
    void shouldCarryEveryTaskThroughTwoAllToAllsOfCombinersEachAGroup() throws Exception {
        assertThat(twoAllToAlls(2, false, true)).isEqualTo(twoAllToAlls(2, false, false));
    }

    @Test
    void shouldCarryEveryTaskThroughTwoAllToAllsOfCombinersInSixGroups() throws Exception {
        assertThat(twoAllToAlls(3, true, true)).isEqualTo(twoAllToAlls(3, true, false));
    }

    /** test_group13: n1 in G1, a 2x3 all-to-all in G2, n4 (three input channels) in G3. */
    private static Map<String, Long> nodeAllToAllNode(boolean grouped) throws Exception {
        Log log = new Log();
        HelloSource n1 = new HelloSource(TASKS);
        List<Node2> l = List.of(new Node2(log), new Node2(log));
        List<Combiner<Task, Task>> r = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            r.add(Combiner.of(new Helper(), new Node3(log)));
        }
        Node4 n4 = new Node4();
        AllToAll a2a = new AllToAll().firstSet(l).secondSet(r);
        Pipeline pipe = new Pipeline(n1, a2a, n4);
        if (grouped) {
            n1.createGroup("G1");
            a2a.createGroup("G2");
            n4.createGroup("G3");
        }
        DistributedPrograms.run(pipe, "", grouped ? List.of("G1", "G2", "G3") : List.of());
        assertThat(n4.inputs).isEqualTo(3);
        return check(log, n4, 2, 3);
    }

    @Test
    void shouldCarryEveryTaskThroughAnAllToAllBetweenTwoNodeGroups() throws Exception {
        assertThat(nodeAllToAllNode(true)).isEqualTo(nodeAllToAllNode(false));
    }
}
