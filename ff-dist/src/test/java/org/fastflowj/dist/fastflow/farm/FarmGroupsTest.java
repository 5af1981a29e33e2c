package org.fastflowj.dist.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.fastflow.DistributedPrograms;
import org.fastflowj.dist.fastflow.DistributedPrograms.HelloSource;
import org.fastflowj.dist.fastflow.DistributedPrograms.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/distributed/test_group18.cpp (a collector-less farm group feeding an all-to-all
 * group feeding a sink group: every task arrives once) and of test_farm1.cpp / test_Farm2.cpp (an emitter sends
 * task i to worker i, each worker tags it with its number, and the collector in another process sees it on
 * channel i; a farm is never split here, so the farm is one group and the multi-input sink another).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FarmGroupsTest {
    private static final int TASKS = 1_000;

    static final class Node2 extends Node<Task, Task> {
        @Override
        protected Task svc(Task t) {
            return t.append(" World" + id());
        }
    }

    static final class Node3 extends MultiOutputNode<Task, Task> {
        @Override
        protected Task svc(Task t) {
            return t.plus(id());
        }
    }

    static final class Node4 extends MultiInputNode<Task, Task> {
        @Override
        protected Task svc(Task t) {
            return t;
        }
    }

    static final class Node5 extends MultiInputNode<Task, Void> {
        final List<Task> received = new ArrayList<>();
        final List<Integer> ends = new ArrayList<>();

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

    private static List<String> farmIntoAllToAll(boolean grouped) throws Exception {
        Farm farm = Farm.of(3, Node2::new).emitter(new HelloSource(TASKS));
        AllToAll a2a =
                new AllToAll().firstSet(new Node3(), new Node3(), new Node3()).secondSet(new Node4(), new Node4());
        Node5 n5 = new Node5();
        Pipeline pipe = new Pipeline(farm, a2a, n5);
        if (grouped) {
            farm.createGroup("G1");
            a2a.createGroup("G2");
            n5.createGroup("G3");
        }
        DistributedPrograms.run(pipe, "", grouped ? List.of("G1", "G2", "G3") : List.of());

        assertThat(n5.received)
                .extracting(Task::seq)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, TASKS).boxed().toList());
        assertThat(n5.received).allSatisfy(t -> {
            assertThat(t.str()).matches("Hello World[0-2]");
            assertThat(t.t() - t.seq()).isBetween(0L, 2L);
        });
        assertThat(n5.ends).containsExactlyInAnyOrder(0, 1);
        return n5.received.stream()
                .map(t -> t.str().substring(0, 11))
                .distinct()
                .toList();
    }

    /** test_group18. */
    @Test
    void shouldDeliverEveryTaskOnceFromAFarmGroupThroughAnAllToAllGroup() throws Exception {
        assertThat(farmIntoAllToAll(true)).isEqualTo(farmIntoAllToAll(false));
    }

    /** test_farm1 / test_Farm2's emitter: task i to worker i. */
    static final class ToEachWorker extends MultiOutputNode<Void, String> {
        @Override
        protected String svc(Void none) {
            for (int i = 0; i < outputChannels(); i++) {
                sendOutTo("Task generated for " + i + " passed to", i);
            }
            return eos();
        }
    }

    static final class Worker extends Node<String, String> {
        @Override
        protected String svc(String in) {
            return in + " " + id();
        }
    }

    static final class Collector extends MultiInputNode<String, Void> {
        final List<String> received = new ArrayList<>();
        final List<Integer> ends = new ArrayList<>();

        @Override
        protected Void svc(String in) {
            received.add(in + " received by Collector from " + inputChannel());
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            ends.add(channel);
        }
    }

    private static List<String> farmToCollector(int workers, boolean grouped) throws Exception {
        Farm farm = Farm.of(workers, Worker::new).emitter(new ToEachWorker());
        Collector collector = new Collector();
        Pipeline pipe = new Pipeline(farm, collector);
        if (grouped) {
            farm.createGroup("G1");
            collector.createGroup("G2");
        }
        DistributedPrograms.run(pipe, "", grouped ? List.of("G1", "G2") : List.of());
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            expected.add("Task generated for " + i + " passed to " + i + " received by Collector from " + i);
        }
        assertThat(collector.received).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(collector.ends).hasSize(workers).doesNotHaveDuplicates();
        return collector.received.stream().sorted().toList();
    }

    @Test
    void shouldTagEachTaskWithItsWorkerAndChannelAcrossGroups() throws Exception {
        assertThat(farmToCollector(10, true)).isEqualTo(farmToCollector(10, false)); // test_farm1
        assertThat(farmToCollector(9, true)).isEqualTo(farmToCollector(9, false)); // test_Farm2
    }
}
