package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.RecoverableAllToAll;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.runtime.control.RunHooks;
import org.fastflowj.core.runtime.recovery.RecoveryHooks;
import org.fastflowj.core.runtime.recovery.Redelivery;
import org.fastflowj.core.runtime.recovery.TakeRecorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link AllToAll#recoverable()}: the rules checked when the graph is built, the edges the compiled graph
 * names, R-Worker groups taken out of the all-to-all's home, and the {@link TakeRecorder} that hears every
 * item an R-Worker takes, in the order it takes them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecoverableAllToAllTest {
    static final class Numbers extends Node<Void, Long> {
        private final long count;

        Numbers(long count) {
            this.count = count;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < count; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    static final class Collect extends MultiInputNode<Long, Void> {
        final List<Long> got = Collections.synchronizedList(new ArrayList<>());

        @Override
        protected Void svc(Long x) {
            got.add(x);
            return goOn();
        }
    }

    /** An R-Worker that notes the input channel of each item it takes, in order. */
    static final class Noting extends MultiInputNode<Long, Long> {
        final List<Integer> channels = Collections.synchronizedList(new ArrayList<>());

        @Override
        protected Long svc(Long x) {
            channels.add(inputChannel());
            return x;
        }
    }

    private static List<Node<Long, Long>> identities(int n) {
        List<Node<Long, Long>> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(Node.of(x -> x));
        }
        return nodes;
    }

    @Test
    void shouldNameEachEdgeFromAnLWorkerToAnRWorkerAndEachRWorkersEdgeToTheNextStage() {
        List<Node<Long, Long>> left = identities(2);
        List<Node<Long, Long>> right = identities(3);
        Collect sink = new Collect();
        Graph graph = GraphCompiler.compile(new Pipeline(
                new Numbers(1),
                new AllToAll().firstSet(left).secondSet(right).onDemand().recoverable(),
                sink));

        assertThat(graph.recoverableAllToAlls()).hasSize(1);
        RecoverableAllToAll a2a = graph.recoverableAllToAlls().get(0);
        assertThat(a2a.name()).isEqualTo("a2a1");
        assertThat(a2a.home()).isNull();
        for (int i = 0; i < 2; i++) {
            assertThat(a2a.senders().get(i).node()).isSameAs(left.get(i));
            for (int j = 0; j < 3; j++) {
                Edge dispatch = a2a.dispatch().get(i).get(j);
                assertThat(dispatch.from()).isSameAs(a2a.senders().get(i));
                assertThat(dispatch.to().node()).isSameAs(right.get(j));
                assertThat(dispatch.to()).isSameAs(a2a.entries().get(j));
                assertThat(a2a.entries().get(j).forwardIn().indexOf(dispatch))
                        .as("R-Worker %d sees L-Worker %d as its input channel %d", j, i, i)
                        .isEqualTo(i);
                assertThat(a2a.senders().get(i).forwardOut().indexOf(dispatch)).isEqualTo(j);
            }
        }
        for (int j = 0; j < 3; j++) {
            assertThat(a2a.returns().get(j).from().node()).isSameAs(right.get(j));
            assertThat(a2a.returns().get(j).to().node()).isSameAs(sink);
        }
        assertThat(GraphCompiler.compile(new Pipeline(
                                new Numbers(1),
                                new AllToAll().firstSet(identities(2)).secondSet(identities(2)),
                                sink))
                        .recoverableAllToAlls())
                .isEmpty();
    }

    @Test
    void shouldRefuseAnAllToAllWhoseOutputsCannotBePairedWithItsItems() {
        assertRefused(
                new AllToAll().firstSet(identities(2)).secondSet(identities(2)).wrapAround(),
                new Collect(),
                "cannot wrap around");
        MultiOutputNode<Long, Long> chooser = new MultiOutputNode<>() {
            @Override
            protected Long svc(Long x) {
                return x;
            }
        };
        assertRefused(
                new AllToAll().firstSet(chooser, Node.<Long, Long>of(x -> x)).secondSet(identities(2)),
                new Collect(),
                "L-Worker 0 is");
        assertRefused(
                new AllToAll()
                        .firstSet(identities(2))
                        .secondSet(
                                Node.<Long, Long>of(x -> x),
                                Farm.of(identities(2)).emitter(Node.<Long, Long>of(x -> x))),
                new Collect(),
                "its R-Workers must be nodes or pipelines of nodes");
        AllToAll wider = new AllToAll().firstSet(identities(3)).secondSet(new Collect(), new Collect(), new Collect());
        assertRefused(
                new AllToAll().firstSet(identities(2)).secondSet(identities(2)),
                wider,
                "each R-Worker's outputs must go on one edge to the next stage, but R-Worker 0");
        assertThatThrownBy(() -> GraphCompiler.compile(new Pipeline(
                        new Numbers(1),
                        new AllToAll()
                                .firstSet(identities(2))
                                .secondSet(identities(2))
                                .recoverable())))
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("has 0: follow it with one node");
    }

    private static void assertRefused(AllToAll a2a, BuildingBlock next, String why) {
        assertThatThrownBy(() -> GraphCompiler.compile(new Pipeline(new Numbers(1), a2a.recoverable(), next)))
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("a2a1 is recoverable, so")
                .hasMessageContaining(why);
    }

    @Test
    void shouldMoveIncludedRWorkersToTheirGroupsAndKeepTheRestInTheHome() {
        List<Node<Long, Long>> right = identities(3);
        AllToAll a2a = new AllToAll()
                .firstSet(identities(2))
                .secondSet(right)
                .onDemand()
                .recoverable();
        Pipeline main = new Pipeline(new Numbers(1), a2a, new Collect());
        main.createGroup("L");
        a2a.createGroup("W1").include(right.get(1));
        a2a.createGroup("W2").include(right.get(2));

        Graph graph = GraphCompiler.compile(main);

        RecoverableAllToAll compiled = graph.recoverableAllToAlls().get(0);
        assertThat(compiled.home()).isEqualTo("L");
        assertThat(compiled.entries()).extracting(Vertex::group).containsExactly("L", "W1", "W2");
        assertThat(compiled.returns())
                .allSatisfy(e -> assertThat(e.to().group()).isEqualTo("L"));
    }

    @Test
    void shouldRefuseAConsumerOutsideTheLWorkersGroup() {
        List<Node<Long, Long>> right = identities(2);
        Numbers source = new Numbers(1);
        Collect sink = new Collect();
        AllToAll a2a = new AllToAll().firstSet(identities(2)).secondSet(right).recoverable();
        source.createGroup("S");
        a2a.createGroup("A");
        a2a.createGroup("W1").include(right.get(1));
        sink.createGroup("C");

        assertThatThrownBy(() -> GraphCompiler.compile(new Pipeline(source, a2a, sink)))
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("the consumer of its R-Workers' outputs must be in its L-Workers' group A")
                .hasMessageContaining("in group C");
    }

    @Test
    void shouldMoveRWorkersOfAnAllToAllThatIsNotRecoverableAlike() {
        List<Node<Long, Long>> right = identities(2);
        AllToAll a2a = new AllToAll().firstSet(identities(2)).secondSet(right);
        Pipeline main = new Pipeline(new Numbers(1), a2a, new Collect());
        main.createGroup("L");
        a2a.createGroup("W1").include(right.get(1));

        Graph graph = GraphCompiler.compile(main);

        assertThat(graph.recoverableAllToAlls()).isEmpty();
        assertThat(graph.vertices())
                .filteredOn(v -> v.node() == right.get(1))
                .extracting(Vertex::group)
                .containsExactly("W1");
        assertThat(graph.vertices())
                .filteredOn(v -> v.node() == right.get(0))
                .extracting(Vertex::group)
                .containsExactly("L");
    }

    @Test
    void shouldRefuseRWorkerGroupsOfAnAllToAllThatIsInNoGroup() {
        List<Node<Long, Long>> right = identities(2);
        AllToAll a2a = new AllToAll().firstSet(new Numbers(1)).secondSet(right);
        a2a.createGroup("W1").include(right.get(1));

        assertThatThrownBy(() -> GraphCompiler.compile(a2a))
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("puts R-Workers in group W1 but is itself in no group");
    }

    @Test
    void shouldKeepTheLevelRuleWhenTheAllToAllsGroupsTakeLWorkersToo() {
        List<Node<Long, Long>> left = identities(2);
        List<Node<Long, Long>> right = identities(2);
        AllToAll a2a = new AllToAll().firstSet(left).secondSet(right).recoverable();
        Pipeline main = new Pipeline(new Numbers(1), a2a, new Collect());
        main.createGroup("M");
        a2a.createGroup("L").include(left.get(0)).include(left.get(1)).include(right.get(0));
        a2a.createGroup("W1").include(right.get(1));

        assertThatThrownBy(() -> GraphCompiler.compile(main))
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("groups come from one level only");
    }

    @Test
    void shouldTellTheRecorderEveryItemEachRWorkerTookInTheOrderItTookThem() throws Exception {
        List<Noting> right = List.of(new Noting(), new Noting());
        Collect sink = new Collect();
        Graph graph = GraphCompiler.compile(new Pipeline(
                new Numbers(2_000),
                new AllToAll()
                        .firstSet(identities(2))
                        .secondSet(right)
                        .onDemand()
                        .recoverable(),
                sink));
        RecoverableAllToAll a2a = graph.recoverableAllToAlls().get(0);
        Map<String, List<Integer>> heard = new ConcurrentHashMap<>();
        for (Vertex entry : a2a.entries()) {
            heard.put(entry.name(), Collections.synchronizedList(new ArrayList<>()));
        }

        Executor.start(graph, RunOptions.defaults(), RunHooks.NONE.recovery(new RecoveryHooks() {
                    @Override
                    public Redelivery redeliveryFor(String nodeName) {
                        return null;
                    }

                    @Override
                    public TakeRecorder takeRecorderFor(String name) {
                        List<Integer> log = heard.get(name);
                        return log == null
                                ? null
                                : (channel, items) -> {
                                    for (int k = 0; k < items; k++) {
                                        log.add(channel);
                                    }
                                };
                    }
                }))
                .await();

        assertThat(sink.got).hasSize(2_000).doesNotHaveDuplicates();
        for (int j = 0; j < 2; j++) {
            assertThat(heard.get(a2a.entries().get(j).name()))
                    .as("R-Worker %d", j)
                    .isEqualTo(right.get(j).channels);
        }
        assertThat(right.get(0).channels.size() + right.get(1).channels.size()).isEqualTo(2_000);
    }

    @Test
    void shouldChangeNothingInOneProcess() {
        Collect sink = new Collect();
        new Pipeline(
                        new Numbers(500),
                        new AllToAll()
                                .firstSet(identities(2))
                                .secondSet(identities(3))
                                .onDemand()
                                .recoverable(),
                        sink)
                .runAndWaitEnd();

        assertThat(sink.got).hasSize(500).doesNotHaveDuplicates();
    }
}
