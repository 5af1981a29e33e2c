package org.fastflowj.core.runtime.node;

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
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.runtime.bridge.BridgeChannels;
import org.fastflowj.core.runtime.bridge.BridgeRunner;
import org.fastflowj.core.runtime.bridge.BridgeTask;
import org.fastflowj.core.runtime.channel.ChannelEnd;
import org.fastflowj.core.runtime.channel.IdlePolicy;
import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.runtime.control.RunControl;
import org.fastflowj.core.runtime.control.RunHooks;
import org.fastflowj.core.spi.Sentinel;
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

    /** The runners of {@code graph}, by vertex index, wired without a thread started. */
    private static NodeRunner[] wired(Graph graph) {
        RunControl control = new RunControl(RunHooks.NONE);
        RunOptions options = RunOptions.defaults();
        ChannelEnd[] runners =
                Executor.wire(graph, options, control, IdlePolicy.of(options.waitStrategy(), false), false);
        return Arrays.stream(runners).map(NodeRunner.class::cast).toArray(NodeRunner[]::new);
    }

    /** The runner of the first vertex of {@code graph} that has {@code role}. */
    private static NodeRunner withRole(Graph graph, NodeRunner[] runners, Vertex.OrderRole role) {
        return runners[
                graph.vertices().stream()
                        .filter(v -> v.orderRole() == role)
                        .findFirst()
                        .orElseThrow()
                        .index()];
    }

    @Test
    void shouldGiveAPipelineStageOneInputOneOutputAndThePlainLoop() {
        List<NodeRunner> runners = wire(new Pipeline(step(), step(), step()));
        NodeRunner source = runners.get(0);
        NodeRunner middle = runners.get(1);
        NodeRunner last = runners.get(2);

        assertThat(source.itemLoop).isEqualTo(NodeRunner.ItemLoop.PRODUCE);
        assertThat(source.in.gate()).isNull();
        assertThat(source.router).isInstanceOf(OutputRouter.Single.class);
        assertThat(middle.itemLoop).isEqualTo(NodeRunner.ItemLoop.CONSUME);
        assertThat(middle.in.gate()).isInstanceOf(SingleInput.class);
        assertThat(middle.router).isInstanceOf(OutputRouter.Single.class);
        assertThat(last.router).isInstanceOf(OutputRouter.Unrouted.class);
        for (NodeRunner r : runners) {
            assertThat(r.in.idleHook).isSameAs(IdleHook.NONE);
            assertThat(r.in.taskMarks).isSameAs(TaskMarks.DROP);
            assertThat(r.out.endHook()).isSameAs(EndHook.NONE);
            assertThat(r.isRunning()).isTrue();
            assertThat(r.out.eosSent()).isFalse();
        }
    }

    @Test
    void shouldRouteAFarmRoundRobinAndGatherItsResultsInTurn() {
        List<NodeRunner> runners = wire(new Pipeline(step(), Farm.of(3, RunnerPartsTest::step), step()));
        NodeRunner emitter = runners.stream()
                .filter(r -> r.out.forwardOut.length == 3)
                .findFirst()
                .orElseThrow();
        NodeRunner collector = runners.stream()
                .filter(r -> r.in.forwardInputs == 3)
                .findFirst()
                .orElseThrow();

        assertThat(emitter.router).isInstanceOf(OutputRouter.RoundRobin.class);
        assertThat(emitter.out.endHook()).isSameAs(EndHook.NONE);
        assertThat(collector.in.gate()).isInstanceOf(RoundRobinInputs.class);
        assertThat(collector.itemLoop).isEqualTo(NodeRunner.ItemLoop.CONSUME);
        for (NodeRunner r : runners) {
            assertThat(r.itemLoop).as("no worker marks tasks").isNotEqualTo(NodeRunner.ItemLoop.CONSUME_MARKING);
        }
    }

    @Test
    void shouldHandAnOnDemandFarmsItemsOutThroughTheDispatch() {
        List<NodeRunner> runners =
                wire(new Pipeline(step(), Farm.of(2, RunnerPartsTest::step).onDemand(), step()));
        NodeRunner emitter =
                runners.stream().filter(r -> r.out.dispatch != null).findFirst().orElseThrow();

        assertThat(emitter.router).isInstanceOf(OutputRouter.OnDemand.class);
        assertThat(runners.stream().filter(r -> r.in.dispatchedInputs.length == 1))
                .as("each worker refills its own slot")
                .hasSize(2);
    }

    @Test
    void shouldChooseTheOrderedFarmsRouterGateEndHookAndMarksOnceWhenWired() {
        Graph graph = GraphCompiler.compile(new Pipeline(
                step(), Farm.of(2, () -> new Pipeline(step(), step())).ordered(), step()));
        NodeRunner[] runners = wired(graph);

        NodeRunner emitter = withRole(graph, runners, Vertex.OrderRole.RECORD);
        assertThat(emitter.router).isInstanceOf(OutputRouter.RecordingRoundRobin.class);
        assertThat(emitter.out.endHook()).isNotSameAs(EndHook.NONE);
        NodeRunner collector = withRole(graph, runners, Vertex.OrderRole.COLLECT);
        assertThat(collector.in.gate()).isInstanceOf(OrderedInputs.class);
        assertThat(collector.out.endHook()).isSameAs(EndHook.NONE);
        NodeRunner first = withRole(graph, runners, Vertex.OrderRole.MARK);
        assertThat(first.itemLoop)
                .as("a worker's first stage marks the end of each task")
                .isEqualTo(NodeRunner.ItemLoop.CONSUME_MARKING);
        assertThat(first.in.taskMarks).isSameAs(TaskMarks.DROP);
        NodeRunner later = withRole(graph, runners, Vertex.OrderRole.PASS_MARKS);
        assertThat(later.itemLoop).isEqualTo(NodeRunner.ItemLoop.CONSUME);
        assertThat(later.in.taskMarks).as("a later stage passes marks on").isNotSameAs(TaskMarks.DROP);
        for (NodeRunner r : runners) {
            if (r != emitter && r != collector) {
                assertThat(r.router).isNotInstanceOf(OutputRouter.RecordingRoundRobin.class);
                assertThat(r.in.gate() instanceof OrderedInputs)
                        .as("%s has a plain gate", r)
                        .isFalse();
                assertThat(r.out.endHook()).isSameAs(EndHook.NONE);
            }
        }
    }

    @Test
    void shouldHandTheCollectorTheWorkersResultsInTheOrderTheEmitterSentTheirTasks() throws Exception {
        Graph graph = GraphCompiler.compile(
                new Pipeline(step(), Farm.of(2, RunnerPartsTest::step).ordered(), step()));
        NodeRunner[] runners = wired(graph);
        NodeRunner emitter = withRole(graph, runners, Vertex.OrderRole.RECORD);
        NodeRunner collector = withRole(graph, runners, Vertex.OrderRole.COLLECT);

        // the emitter's router, from this thread: three tasks round-robin, each recorded
        emitter.router.emit("t0");
        emitter.router.emit("t1");
        emitter.router.emit("t2");
        assertThat(emitter.out.forwardOut[0].poll()).isEqualTo("t0");
        assertThat(emitter.out.forwardOut[1].poll()).isEqualTo("t1");
        assertThat(emitter.out.forwardOut[0].poll()).isEqualTo("t2");

        // the workers answer out of order: worker 1 first, then worker 0 its two tasks
        SpscChannel[] results = collector.in.inputs;
        results[1].offer("r1");
        results[1].offer(Sentinel.TASK_DONE);
        results[0].offer("r0");
        results[0].offer(Sentinel.TASK_DONE);
        results[0].offer("r2");
        results[0].offer(Sentinel.TASK_DONE);

        assertThat(List.of(collector.in.next(), collector.in.next(), collector.in.next()))
                .containsExactly("r0", "r1", "r2");
        assertThat(collector.in.currentChannel).as("the last result's worker").isZero();
    }

    @Test
    void shouldEndTheOrderBehindTheEmittersEosAndCloseTheOrderChannelFromBothEnds() {
        Graph graph = GraphCompiler.compile(
                new Pipeline(step(), Farm.of(2, RunnerPartsTest::step).ordered(), step()));
        NodeRunner[] runners = wired(graph);
        NodeRunner emitter = withRole(graph, runners, Vertex.OrderRole.RECORD);
        NodeRunner collector = withRole(graph, runners, Vertex.OrderRole.COLLECT);
        SpscChannel order = orderChannel(collector);

        emitter.out.sendEos();

        assertThat(emitter.out.forwardOut[0].poll()).isSameAs(Sentinel.EOS);
        assertThat(emitter.out.forwardOut[1].poll()).isSameAs(Sentinel.EOS);
        assertThat(order.poll()).as("the end hook, after the EOS").isSameAs(Sentinel.ORDER_END);
        assertThat(emitter.out.eosSent()).isTrue();

        emitter.endChannels();
        collector.endChannels();
        assertThat(order.producerDone)
                .as("the emitter's end marks its order channel done")
                .isTrue();
        assertThat(order.consumerGone)
                .as("the collector's end marks its order channel gone")
                .isTrue();
    }

    @Test
    void shouldPassATaskMarkOnFromAWorkersLaterStageAndDropItElsewhere() throws Exception {
        Graph graph = GraphCompiler.compile(new Pipeline(
                step(), Farm.of(1, () -> new Pipeline(step(), step())).ordered(), step()));
        NodeRunner[] runners = wired(graph);
        NodeRunner later = withRole(graph, runners, Vertex.OrderRole.PASS_MARKS);
        SpscChannel in = later.in.inputs[0];

        later.in.control(in, 0, Sentinel.TASK_DONE);
        assertThat(later.out.forwardOut[0].poll()).isSameAs(Sentinel.TASK_DONE);

        NodeRunner plain = wire(new Pipeline(step(), step(), step())).get(1);
        plain.in.control(plain.in.inputs[0], 0, Sentinel.TASK_DONE);
        assertThat(plain.out.forwardOut[0].hasItems()).isFalse();
    }

    /** The collector's order channel: the one channel it consumes besides its inputs. */
    private static SpscChannel orderChannel(NodeRunner collector) {
        return ((OrderedInputs) collector.in.gate()).orderChannel();
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
        assertThat(next.itemLoop).isEqualTo(NodeRunner.ItemLoop.CONSUME_UNROLLING);
        assertThat(after.itemLoop)
                .as("two hops from the bridge: plain items only")
                .isEqualTo(NodeRunner.ItemLoop.CONSUME);
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
                .filter(r -> r.in.inputs.length == 1 && r.in.inputs[0].producer.sendsChunks())
                .findFirst()
                .orElseThrow();
        NodeRunner collector =
                nodes.stream().filter(r -> r.in.forwardInputs == 2).findFirst().orElseThrow();
        assertThat(collector.in.idler.policy().spinRounds())
                .as("the node gathering the farm's results, fed by its workers")
                .isEqualTo(IdlePolicy.BATCHED_INPUT_SPINS);
        assertThat(collector.out.idler.policy()).isEqualTo(crowded);
        assertThat(fedByReceiver.in.idler.policy())
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
