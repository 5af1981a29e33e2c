package org.fastflowj.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.EngineTask;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.GraphCut;
import org.fastflowj.core.graph.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The parts a runner is built from are chosen once, when the graph is wired, by the node's place in it:
 * its input gate, its output router, its item loop; a bridge vertex gets a bridge runner. Runners are wired
 * here as the executor wires them, without starting a thread.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RunnerPartsTest {
    private static List<NodeRunner> wire(BuildingBlock root, RunOptions options) {
        RunControl control = new RunControl(RunHooks.NONE);
        IdlePolicy idle = IdlePolicy.of(options.waitStrategy(), false);
        return Arrays.stream(Executor.wire(GraphCompiler.compile(root), options, control, idle, false))
                .map(NodeRunner.class::cast)
                .toList();
    }

    private static List<NodeRunner> wire(BuildingBlock root) {
        return wire(root, RunOptions.defaults());
    }

    private static Node<Integer, Integer> step() {
        return Node.of((Integer x) -> x);
    }

    private static NodeRunner withRole(List<NodeRunner> runners, Vertex.OrderRole role) {
        return runners.stream().filter(r -> r.orderRole == role).findFirst().orElseThrow();
    }

    @Test
    void shouldGiveAPipelineStageOneInputOneOutputAndThePlainLoop() {
        List<NodeRunner> runners = wire(new Pipeline(step(), step(), step()));
        NodeRunner source = runners.get(0);
        NodeRunner middle = runners.get(1);
        NodeRunner last = runners.get(2);

        assertThat(source.itemLoop).isEqualTo(RunnerState.ItemLoop.PRODUCE);
        assertThat(source.gate).isNull();
        assertThat(source.router).isInstanceOf(OutputRouter.Single.class);
        assertThat(middle.itemLoop).isEqualTo(RunnerState.ItemLoop.CONSUME);
        assertThat(middle.gate).isInstanceOf(SingleInput.class);
        assertThat(middle.router).isInstanceOf(OutputRouter.Single.class);
        assertThat(last.router).isInstanceOf(OutputRouter.Unrouted.class);
        for (NodeRunner r : runners) {
            assertThat(r.idleHook).isSameAs(IdleHook.NONE);
            assertThat(r.runPhase).isEqualTo(RunPhase.RUNNING);
            assertThat(r.outputSide).isEqualTo(OutputSide.OPEN);
        }
    }

    @Test
    void shouldRouteAFarmRoundRobinAndGatherItsResultsInTurn() {
        List<NodeRunner> runners = wire(new Pipeline(step(), Farm.of(3, RunnerPartsTest::step), step()));
        NodeRunner emitter = runners.stream()
                .filter(r -> r.forwardOut != null && r.forwardOut.length == 3)
                .findFirst()
                .orElseThrow();
        NodeRunner collector =
                runners.stream().filter(r -> r.forwardInputs == 3).findFirst().orElseThrow();

        assertThat(emitter.router).isInstanceOf(OutputRouter.RoundRobin.class);
        assertThat(collector.gate).isInstanceOf(RoundRobinInputs.class);
        assertThat(collector.itemLoop).isEqualTo(RunnerState.ItemLoop.CONSUME);
    }

    @Test
    void shouldHandAnOnDemandFarmsItemsOutThroughTheDispatch() {
        List<NodeRunner> runners =
                wire(new Pipeline(step(), Farm.of(2, RunnerPartsTest::step).onDemand(), step()));
        NodeRunner emitter =
                runners.stream().filter(r -> r.dispatch != null).findFirst().orElseThrow();

        assertThat(emitter.router).isInstanceOf(OutputRouter.OnDemand.class);
        assertThat(runners.stream().filter(r -> r.dispatchedInputs != null && r.dispatchedInputs.length == 1))
                .as("each worker refills its own slot")
                .hasSize(2);
    }

    @Test
    void shouldRecordAnOrderedFarmsOrderAndReadItBackInThatOrder() {
        List<NodeRunner> runners =
                wire(new Pipeline(step(), Farm.of(2, RunnerPartsTest::step).ordered(), step()));

        assertThat(withRole(runners, Vertex.OrderRole.RECORD).router)
                .isInstanceOf(OutputRouter.RecordingRoundRobin.class);
        NodeRunner collector = withRole(runners, Vertex.OrderRole.COLLECT);
        assertThat(collector.gate).isInstanceOf(OrderedInputs.class);
        NodeRunner worker = withRole(runners, Vertex.OrderRole.MARK);
        assertThat(worker.itemLoop)
                .as("a worker marks the end of each task")
                .isEqualTo(RunnerState.ItemLoop.CONSUME_UNROLLING);
    }

    /** Stands for a receiver: a bridge task that sends chunks downstream. */
    static final class ReceiverStandIn implements BridgeTask {
        @Override
        public void init(BridgeChannels channels) {}

        @Override
        public int doWork() {
            return 0;
        }

        @Override
        public boolean workPending() {
            return false;
        }

        @Override
        public boolean isDone() {
            return true;
        }

        @Override
        public void close() {}
    }

    /** Group {@code group}'s part of {@code whole}, for a group that only receives: its receivers are stand-ins. */
    private static Graph receivingPart(Graph whole, String group) {
        return GraphCut.forGroup(whole, group, new GraphCut.BridgeFactory() {
            @Override
            public EngineTask sender(String peer, List<Edge> forward, List<Edge> feedback) {
                throw new AssertionError(group + " sends to nobody");
            }

            @Override
            public EngineTask receiver(String peer, List<Edge> forward, List<Edge> feedback) {
                return new ReceiverStandIn();
            }
        });
    }

    @Test
    void shouldRunABridgeVertexOnABridgeRunnerAndUnrollChunksOnlyRightDownstreamOfIt() {
        Node<Integer, Integer> source = step();
        Node<Integer, Integer> first = step();
        Node<Integer, Integer> second = step();
        source.createGroup("G1");
        Pipeline downstream = new Pipeline(first, second);
        downstream.createGroup("G2");
        Graph whole = GraphCompiler.compile(new Pipeline(source, downstream));
        Graph g2 = receivingPart(whole, "G2");
        RunControl control = new RunControl(RunHooks.NONE);
        IdlePolicy idle = IdlePolicy.of(WaitStrategy.BACKOFF, false);

        ChannelEnd[] runners = Executor.wire(g2, RunOptions.defaults(), control, idle, false);

        ChannelEnd receiver = runners[g2.vertex("ff-recv-G1").index()];
        assertThat(receiver).isInstanceOf(BridgeRunner.class);
        assertThat(receiver.sendsChunks()).isTrue();
        NodeRunner next =
                (NodeRunner) runners[g2.vertex(whole.vertices().get(1).name()).index()];
        NodeRunner after =
                (NodeRunner) runners[g2.vertex(whole.vertices().get(2).name()).index()];
        assertThat(next.itemLoop).isEqualTo(RunnerState.ItemLoop.CONSUME_UNROLLING);
        assertThat(after.itemLoop)
                .as("two hops from the bridge: plain items only")
                .isEqualTo(RunnerState.ItemLoop.CONSUME);
    }

    @Test
    void shouldLetANodeFedByNodesParkSoonestOnACrowdedMachineButNotOneFedByAReceiver() {
        Node<Integer, Integer> source = step();
        source.createGroup("G1");
        Pipeline downstream = new Pipeline(step(), Farm.of(2, RunnerPartsTest::step), step());
        downstream.createGroup("G2");
        Graph whole = GraphCompiler.compile(new Pipeline(source, downstream));
        Graph g2 = receivingPart(whole, "G2");
        IdlePolicy crowded = IdlePolicy.of(WaitStrategy.BACKOFF, true);

        ChannelEnd[] runners = Executor.wire(g2, RunOptions.defaults(), new RunControl(RunHooks.NONE), crowded, true);

        List<NodeRunner> nodes = Arrays.stream(runners)
                .filter(NodeRunner.class::isInstance)
                .map(NodeRunner.class::cast)
                .toList();
        NodeRunner fedByReceiver = nodes.stream()
                .filter(r -> r.inputs.length == 1 && r.inputs[0].producer.sendsChunks())
                .findFirst()
                .orElseThrow();
        NodeRunner collector =
                nodes.stream().filter(r -> r.forwardInputs == 2).findFirst().orElseThrow();
        assertThat(collector.inputIdler.policy().spinRounds())
                .as("the node gathering the farm's results, fed by its workers")
                .isEqualTo(IdlePolicy.BATCHED_INPUT_SPINS);
        assertThat(collector.outputIdler.policy()).isEqualTo(crowded);
        assertThat(fedByReceiver.inputIdler.policy())
                .as("fed by a receiving bridge: items come in bursts")
                .isEqualTo(crowded);
    }

    @Test
    void shouldPutTheItemFilterInFrontOfWhicheverRouterTheNodeGets() {
        RunControl control = new RunControl(RunHooks.NONE.itemFilters(() -> item -> item));
        IdlePolicy idle = IdlePolicy.of(WaitStrategy.BACKOFF, false);
        ChannelEnd[] runners = Executor.wire(
                GraphCompiler.compile(new Pipeline(step(), step())), RunOptions.defaults(), control, idle, false);

        assertThat(((NodeRunner) runners[0]).router).isInstanceOf(OutputRouter.Filtering.class);
    }
}
