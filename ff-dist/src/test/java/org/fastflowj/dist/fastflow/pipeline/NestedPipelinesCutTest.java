package org.fastflowj.dist.fastflow.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.fastflow.DistributedPrograms;
import org.fastflowj.dist.fastflow.DistributedPrograms.AppendWorld;
import org.fastflowj.dist.fastflow.DistributedPrograms.HelloSource;
import org.fastflowj.dist.fastflow.DistributedPrograms.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/distributed/test_group9.cpp (test_complete2), test_group16.cpp (test_complete8),
 * test_group19.cpp and test_wrapper.cpp: a four-stage pipeline of tasks (Hello -> Hello World -> t+1, f+1 ->
 * sink) cut between nested pipelines, by include, or between every stage; the sink gets every task once, in
 * order, transformed as in one process.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NestedPipelinesCutTest {
    private static final int TASKS = 1_000;

    /** Adds 1 to t and f; as test_wrapper's Node3, every other task leaves by sendOut rather than return. */
    static final class Node3 extends Node<Task, Task> {
        private boolean even = true;

        @Override
        protected Task svc(Task t) {
            Task out = t.plus(1);
            if (even) {
                even = false;
                sendOut(out);
                return goOn();
            }
            even = true;
            return out;
        }
    }

    static final class Node4 extends MultiInputNode<Task, Void> {
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

    private static void assertEveryTaskInOrder(Node4 sink) {
        List<Task> expected = LongStream.range(0, TASKS)
                .mapToObj(i -> new Task("Hello World", i, i + 1, i + 1.0f))
                .toList();
        assertThat(sink.received).isEqualTo(expected);
        assertThat(sink.ends).containsExactly(0);
    }

    private interface Shape {
        Pipeline build(HelloSource n1, AppendWorld n2, Node3 n3, Node4 n4, boolean grouped);
    }

    private static void assertSameInOneProcessAndInGroups(Shape shape, String... groups) throws Exception {
        for (boolean grouped : new boolean[] {false, true}) {
            Node4 n4 = new Node4();
            Pipeline root = shape.build(new HelloSource(TASKS), new AppendWorld(), new Node3(), n4, grouped);
            DistributedPrograms.run(root, "", grouped ? List.of(groups) : List.of());
            assertEveryTaskInOrder(n4);
        }
    }

    /** test_group9: pipe(pipe0(n1, n2) in G1, pipe1(n3, n4) in G2). */
    @Test
    void shouldPassEveryTaskInOrderBetweenTwoNestedPipelines() throws Exception {
        assertSameInOneProcessAndInGroups(
                (n1, n2, n3, n4, grouped) -> {
                    Pipeline pipe0 = new Pipeline(n1, n2);
                    Pipeline pipe1 = new Pipeline(n3, n4);
                    if (grouped) {
                        pipe0.createGroup("G1");
                        pipe1.createGroup("G2");
                    }
                    return new Pipeline(pipe0, pipe1);
                },
                "G1",
                "G2");
    }

    /** test_group16: pipe0(n1, n2) in G1, the node n3 in G2, a one-stage pipe2(n4) in G3. */
    @Test
    void shouldPassEveryTaskInOrderThroughANodeGroupBetweenPipelines() throws Exception {
        assertSameInOneProcessAndInGroups(
                (n1, n2, n3, n4, grouped) -> {
                    Pipeline pipe0 = new Pipeline(n1, n2);
                    Pipeline pipe2 = new Pipeline(n4);
                    if (grouped) {
                        pipe0.createGroup("G1");
                        n3.createGroup("G2");
                        pipe2.createGroup("G3");
                    }
                    return new Pipeline(pipe0, n3, pipe2);
                },
                "G1",
                "G2",
                "G3");
    }

    /** test_group19: one flat pipeline split from the root, G1 = {n1, n2}, G2 = {n3, n4}. */
    @Test
    void shouldPassEveryTaskInOrderWhenTheRootPipelineIsSplitByInclude() throws Exception {
        assertSameInOneProcessAndInGroups(
                (n1, n2, n3, n4, grouped) -> {
                    Pipeline pipe = new Pipeline(n1, n2, n3, n4);
                    if (grouped) {
                        pipe.createGroup("G1").include(n1).include(n2);
                        pipe.createGroup("G2").include(n3).include(n4);
                    }
                    return pipe;
                },
                "G1",
                "G2");
    }

    /** test_wrapper: every edge serialized (there by in-process wrappers): here every stage is its own group. */
    @Test
    void shouldPassEveryTaskInOrderWhenEveryStageIsAGroup() throws Exception {
        assertSameInOneProcessAndInGroups(
                (n1, n2, n3, n4, grouped) -> {
                    if (grouped) {
                        n1.createGroup("G1");
                        n2.createGroup("G2");
                        n3.createGroup("G3");
                        n4.createGroup("G4");
                    }
                    return new Pipeline(n1, n2, n3, n4);
                },
                "G1",
                "G2",
                "G3",
                "G4");
    }
}
