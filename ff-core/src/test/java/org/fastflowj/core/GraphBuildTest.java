package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.fastflowj.core.StreamFixtures.source;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The building-block tree is checked when it is compiled at run(): illegal compositions throw
 * GraphBuildException before any thread starts. Legal trees are wired by the paper's rules.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GraphBuildTest {
    /** svcInit calls of every Named node of the current test: must stay 0 when the build fails. */
    private final AtomicInteger started = new AtomicInteger();

    /** A pass-through node with a recognisable name. */
    final class Named extends Node<Object, Object> {
        private final String name;

        Named(String name) {
            this.name = name;
        }

        @Override
        protected void svcInit() {
            started.incrementAndGet();
        }

        @Override
        protected Object svc(Object in) {
            return in;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A source node with a recognisable name. */
    final class NamedSource extends Node<Void, Object> {
        private final String name;

        NamedSource(String name) {
            this.name = name;
        }

        @Override
        protected void svcInit() {
            started.incrementAndGet();
        }

        @Override
        protected Object svc(Void none) {
            return eos();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Builds the tree (which must not throw), then checks that run() throws before starting anything. */
    private void assertRejectedAtRun(Supplier<BuildingBlock> tree, String... messageParts) {
        AtomicInteger built = new AtomicInteger();
        List<BuildingBlock> holder = new ArrayList<>();
        assertThatCode(() -> {
                    holder.add(tree.get());
                    built.incrementAndGet();
                })
                .as("building the tree is only a description and must not throw")
                .doesNotThrowAnyException();
        Set<Thread> before = StreamFixtures.liveNodeThreads();

        assertThatThrownBy(() -> holder.get(0).run())
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContainingAll(messageParts);

        assertThat(started).as("no node was started").hasValue(0);
        assertThat(StreamFixtures.nodeThreadsStartedSince(before))
                .as("no node thread was started")
                .isEmpty();
        assertThatThrownBy(() -> holder.get(0).waitEnd()).isInstanceOf(IllegalStateException.class);
    }

    // ------------------------------------------------------------------ illegal trees

    @Test
    void shouldRejectTheSameNodeTwiceInAPipeline() {
        Named twice = new Named("node-used-twice");
        assertRejectedAtRun(() -> new Pipeline(new NamedSource("src"), twice, twice), "node-used-twice", "twice");
    }

    @Test
    void shouldRejectTheSameNodeTwiceInAFarm() {
        Named twice = new Named("worker-used-twice");
        assertRejectedAtRun(
                () -> new Pipeline(new NamedSource("src"), Farm.of(twice, new Named("w"), twice)),
                "worker-used-twice",
                "twice");
    }

    @Test
    void shouldRejectTheSameNodeAsEmitterAndWorker() {
        Named twice = new Named("emitter-and-worker");
        assertRejectedAtRun(
                () -> new Pipeline(new NamedSource("src"), Farm.of(twice).emitter(twice)),
                "emitter-and-worker",
                "twice");
    }

    @Test
    void shouldRejectANodeUsedInACombinerAndElsewhere() {
        Named twice = new Named("combined-and-staged");
        assertRejectedAtRun(
                () -> new Pipeline(new NamedSource("src"), twice, Combiner.of(new Named("other"), twice)),
                "combined-and-staged",
                "twice");
    }

    @Test
    void shouldRejectTheSameNodeInTwoCombiners() {
        Named twice = new Named("in-two-combiners");
        assertRejectedAtRun(
                () -> new Pipeline(
                        new NamedSource("src"), Combiner.of(twice, new Named("a")), Combiner.of(new Named("b"), twice)),
                "in-two-combiners",
                "twice");
    }

    @Test
    void shouldRejectCombiningANodeWithItself() {
        Named self = new Named("self-combined");
        assertThatThrownBy(() -> Combiner.of(self, self))
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("self-combined")
                .hasMessageContaining("itself");
    }

    @Test
    void shouldRejectTheSameBlockTwice() {
        Farm farm = Farm.of(new Named("w"));
        assertRejectedAtRun(() -> new Pipeline(new NamedSource("src"), farm, farm), farm.toString(), "twice");
    }

    @Test
    void shouldRejectAnEmptyPipeline() {
        assertRejectedAtRun(Pipeline::new, "at least one stage");
    }

    @Test
    void shouldRejectAnEmptyNestedPipeline() {
        assertRejectedAtRun(() -> new Pipeline(new NamedSource("src"), new Pipeline()), "at least one stage");
    }

    @Test
    void shouldRejectAnEmptyFarm() {
        assertRejectedAtRun(() -> new Pipeline(new NamedSource("src"), Farm.of()), "at least one worker");
    }

    @Test
    void shouldRejectAnAllToAllWithoutRWorkers() {
        assertRejectedAtRun(() -> new AllToAll().firstSet(new NamedSource("l")), "at least one");
    }

    @Test
    void shouldRejectAnAllToAllWithoutLWorkers() {
        assertRejectedAtRun(
                () -> new Pipeline(new NamedSource("src"), new AllToAll().secondSet(new Named("r"))), "at least one");
    }

    @Test
    void shouldRejectAnEmptyAllToAll() {
        assertRejectedAtRun(AllToAll::new, "at least one");
    }

    @Test
    void shouldRejectAStageAfterAWrappedAroundPipelineEndingInAPlainNode() {
        assertRejectedAtRun(
                () -> new Pipeline(
                        new Pipeline(new NamedSource("head"), new Named("body")).wrapAround(), new Named("after-loop")),
                "ff-pipe1-stage0-stage1",
                "body",
                "MultiOutputNode");
    }

    @Test
    void shouldRejectAStageAfterAWrappedAroundFarmWithAPlainCollector() {
        assertRejectedAtRun(
                () -> new Pipeline(
                        new NamedSource("src"),
                        Farm.of(new Named("w"))
                                .emitter(new Named("e"))
                                .collector(new Named("plain-collector"))
                                .wrapAround(),
                        new Named("after-farm-loop")),
                "ff-farm1-collector",
                "plain-collector",
                "MultiOutputNode");
    }

    @Test
    void shouldRejectAStageAfterAWrappedAroundFarmWithPlainWorkers() {
        assertRejectedAtRun(
                () -> new Pipeline(
                        new NamedSource("src"),
                        Farm.of(new Named("plain-worker"))
                                .emitter(new Named("e"))
                                .wrapAround(),
                        new Named("after-farm-loop")),
                "ff-farm1-worker0",
                "plain-worker",
                "MultiOutputNode");
    }

    @Test
    void shouldRejectAStageAfterAWrappedAroundAllToAllWithPlainRWorkers() {
        assertRejectedAtRun(
                () -> new Pipeline(
                        new AllToAll()
                                .firstSet(new NamedSource("l"))
                                .secondSet(new Named("plain-r"))
                                .wrapAround(),
                        new Named("after-a2a-loop")),
                "ff-a2a1-R0",
                "plain-r",
                "MultiOutputNode");
    }

    @Test
    void shouldRejectAWrappedAroundFarmWithoutItsOwnEmitter() {
        assertRejectedAtRun(
                () -> new Pipeline(
                        new NamedSource("src"),
                        Farm.of(new Named("w")).collector(new Named("c")).wrapAround()),
                "farm1",
                "emitter");
    }

    @Test
    void shouldRejectAnOrderedFarmWithAFarmAsWorker() {
        assertRejectedAtRun(
                () -> new Pipeline(
                        new NamedSource("src"),
                        Farm.of(Farm.of(new Named("inner")), new Named("w1")).ordered(),
                        new Named("sink")),
                "ordered",
                "worker 0");
    }

    @Test
    void shouldRejectAnOrderedFarmWithAnAllToAllInAWorkerPipeline() {
        assertRejectedAtRun(
                () -> new Pipeline(
                        new NamedSource("src"),
                        Farm.of(new Pipeline(
                                        new Named("a"),
                                        new AllToAll().firstSet(new Named("l")).secondSet(new Named("r"))))
                                .ordered(),
                        new Named("sink")),
                "ordered");
    }

    @Test
    void shouldRejectAnOrderedFarmThatWrapsAround() {
        assertRejectedAtRun(
                () -> new Pipeline(
                        new NamedSource("src"),
                        Farm.of(new Named("w"))
                                .collector(new Named("c"))
                                .ordered()
                                .wrapAround()),
                "ordered",
                "wrap around");
    }

    @Test
    void shouldRejectAnOrderedFarmOfSourceWorkers() {
        assertRejectedAtRun(() -> new Pipeline(Farm.of(new NamedSource("w0")).ordered(), new Named("sink")), "ordered");
    }

    @Test
    void shouldRejectWhenRunIsCalledWhileRunning() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Node<Void, Integer> gated = new Node<>() {
            @Override
            protected Integer svc(Void none) throws InterruptedException {
                release.await();
                return eos();
            }
        };
        Pipeline pipe = new Pipeline(gated);
        pipe.run();
        try {
            assertThatThrownBy(pipe::run)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("running");
        } finally {
            release.countDown();
            pipe.waitEnd();
        }
    }

    // ------------------------------------------------------------------ wiring of legal trees

    private static List<String> names(List<Edge> edges, boolean from) {
        List<String> out = new ArrayList<>();
        for (Edge e : edges) {
            out.add(from ? e.from().name() : e.to().name());
        }
        return out;
    }

    private static long forwardEdgesBetween(Graph g, String fromPrefix, String toPrefix) {
        return g.edges().stream()
                .filter(e -> e.kind() == Edge.Kind.FORWARD)
                .filter(e ->
                        e.from().name().startsWith(fromPrefix) && e.to().name().startsWith(toPrefix))
                .count();
    }

    @Test
    void shouldFanInAFarmWithoutCollectorIntoTheNextNode() {
        Graph g = GraphCompiler.compile(new Pipeline(Farm.of(3, () -> source(1)), new Named("after")));

        Vertex after = g.vertex("ff-pipe1-stage1");
        assertThat(names(after.forwardIn(), true))
                .containsExactly("ff-farm1-worker0", "ff-farm1-worker1", "ff-farm1-worker2");
        assertThat(after.feedbackIn()).isEmpty();
        assertThat(after.forwardOut()).isEmpty();
        for (int i = 0; i < 3; i++) {
            assertThat(g.vertex("ff-farm1-worker" + i).forwardIn())
                    .as("source workers have no input")
                    .isEmpty();
        }
        assertThat(g.vertices()).extracting(Vertex::name).doesNotContain("ff-farm1-emitter", "ff-farm1-collector");
    }

    @Test
    void shouldFanOutANodeIntoEveryLWorker() {
        Graph g = GraphCompiler.compile(new Pipeline(
                new NamedSource("before"),
                new AllToAll().firstSet(new Named("l0"), new Named("l1")).secondSet(new Named("r0"))));

        Vertex before = g.vertex("ff-pipe1-stage0");
        assertThat(names(before.forwardOut(), false)).containsExactly("ff-a2a1-L0", "ff-a2a1-L1");
        assertThat(g.vertex("ff-a2a1-R0").forwardIn())
                .extracting(e -> e.from().name())
                .containsExactly("ff-a2a1-L0", "ff-a2a1-L1");
    }

    @Test
    void shouldJoinEqualWidthsOneToOne() {
        Graph g = GraphCompiler.compile(new Pipeline(
                new AllToAll()
                        .firstSet(new NamedSource("a"), new NamedSource("b"))
                        .secondSet(new Named("r0"), new Named("r1"), new Named("r2")),
                new AllToAll()
                        .firstSet(new Named("l0"), new Named("l1"), new Named("l2"))
                        .secondSet(new Named("s0"))));

        assertThat(forwardEdgesBetween(g, "ff-a2a1-R", "ff-a2a2-L")).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertThat(names(g.vertex("ff-a2a1-R" + i).forwardOut(), false)).containsExactly("ff-a2a2-L" + i);
            assertThat(names(g.vertex("ff-a2a2-L" + i).forwardIn(), true)).containsExactly("ff-a2a1-R" + i);
        }
    }

    @Test
    void shouldShuffleUnequalWidthsFully() {
        Graph g = GraphCompiler.compile(new Pipeline(
                new AllToAll().firstSet(new NamedSource("a")).secondSet(new Named("r0"), new Named("r1")),
                new AllToAll()
                        .firstSet(new Named("l0"), new Named("l1"), new Named("l2"))
                        .secondSet(new Named("s0"))));

        assertThat(forwardEdgesBetween(g, "ff-a2a1-R", "ff-a2a2-L")).isEqualTo(6);
        for (int i = 0; i < 2; i++) {
            assertThat(names(g.vertex("ff-a2a1-R" + i).forwardOut(), false))
                    .containsExactly("ff-a2a2-L0", "ff-a2a2-L1", "ff-a2a2-L2");
        }
        for (int j = 0; j < 3; j++) {
            assertThat(names(g.vertex("ff-a2a2-L" + j).forwardIn(), true)).containsExactly("ff-a2a1-R0", "ff-a2a1-R1");
        }
    }

    /** An R-Worker choosing its outputs. */
    static final class Chooser extends MultiOutputNode<Object, Object> {
        @Override
        protected Object svc(Object in) {
            return in;
        }
    }

    /** An L-Worker reading its inputs one by one. */
    static final class Reader extends MultiInputNode<Object, Object> {
        @Override
        protected Object svc(Object in) {
            return in;
        }
    }

    @Test
    void shouldShuffleFullyWhenBothSidesChooseTheirChannelsEvenForEqualWidths() {
        Graph g = GraphCompiler.compile(new Pipeline(
                new AllToAll().firstSet(new NamedSource("a")).secondSet(new Chooser(), new Chooser()),
                new AllToAll().firstSet(new Reader(), new Reader()).secondSet(new Named("s0"))));

        assertThat(forwardEdgesBetween(g, "ff-a2a1-R", "ff-a2a2-L")).isEqualTo(4);
    }

    @Test
    void shouldLetMultiOutputLastLevelOfALoopFeedANextStage() {
        Graph g = GraphCompiler.compile(new Pipeline(
                new AllToAll()
                        .firstSet(new Reader(), new Reader())
                        .secondSet(new Chooser(), new Chooser())
                        .wrapAround(),
                new Named("after")));

        for (int j = 0; j < 2; j++) {
            Vertex r = g.vertex("ff-a2a1-R" + j);
            assertThat(names(r.forwardOut(), false)).containsExactly("ff-pipe1-stage1");
            assertThat(names(r.feedbackOut(), false)).containsExactly("ff-a2a1-L0", "ff-a2a1-L1");
        }
        assertThat(names(g.vertex("ff-pipe1-stage1").forwardIn(), true)).containsExactly("ff-a2a1-R0", "ff-a2a1-R1");
    }

    @Test
    void shouldNameThreadsAfterTheirPlaceInTheTree() {
        Farm farm = Farm.of(new Named("w0"), new Named("w1"), new Pipeline(new Named("w2a"), new Named("w2b")))
                .emitter(new Named("e"))
                .collector(new Named("c"));
        AllToAll a2a = new AllToAll()
                .firstSet(new Named("l0"), new Named("l1"))
                .secondSet(new Named("r0"), new Named("r1"), new Named("r2"));
        Graph g = GraphCompiler.compile(new Pipeline(new NamedSource("src"), farm, a2a, new Named("sink")));

        assertThat(g.vertices())
                .extracting(Vertex::name)
                .containsExactlyInAnyOrder(
                        "ff-pipe1-stage0",
                        "ff-farm1-emitter",
                        "ff-farm1-worker0",
                        "ff-farm1-worker1",
                        "ff-farm1-worker2-stage0",
                        "ff-farm1-worker2-stage1",
                        "ff-farm1-collector",
                        "ff-a2a1-L0",
                        "ff-a2a1-L1",
                        "ff-a2a1-R0",
                        "ff-a2a1-R1",
                        "ff-a2a1-R2",
                        "ff-pipe1-stage3");
        assertThat(g.vertex("ff-farm1-worker2-stage1").node().toString()).isEqualTo("w2b");
        assertThat(g.vertex("ff-a2a1-R2").node().toString()).isEqualTo("r2");
        assertThat(g.vertex("ff-farm1-worker1").id()).isEqualTo(1);
        assertThat(g.vertex("ff-a2a1-R2").id()).isEqualTo(2);
    }

    @Test
    void shouldAddDefaultEmitterOnlyWhenTheFarmHasInput() {
        Graph withInput = GraphCompiler.compile(new Pipeline(new NamedSource("src"), Farm.of(new Named("w"))));
        Graph sources = GraphCompiler.compile(new Pipeline(Farm.of(new NamedSource("w")), new Named("after")));

        assertThat(withInput.vertices()).extracting(Vertex::name).contains("ff-farm1-emitter");
        assertThat(sources.vertices()).extracting(Vertex::name).doesNotContain("ff-farm1-emitter");
    }

    @Test
    void shouldWireFeedbackFromLastStageToFirstStage() {
        Graph g = GraphCompiler.compile(
                new Pipeline(new NamedSource("head"), new Named("mid"), new Named("last")).wrapAround());

        Vertex head = g.vertex("ff-pipe1-stage0");
        assertThat(head.forwardIn()).isEmpty();
        assertThat(names(head.feedbackIn(), true)).containsExactly("ff-pipe1-stage2");
        Vertex last = g.vertex("ff-pipe1-stage2");
        assertThat(last.forwardOut()).isEmpty();
        assertThat(names(last.feedbackOut(), false)).containsExactly("ff-pipe1-stage0");
    }

    @Test
    void shouldWireAllToAllFeedbackFromEveryRWorkerToEveryLWorker() {
        Graph g = GraphCompiler.compile(new AllToAll()
                .firstSet(new Named("l0"), new Named("l1"))
                .secondSet(new Named("r0"), new Named("r1"), new Named("r2"))
                .wrapAround());

        for (int i = 0; i < 2; i++) {
            assertThat(names(g.vertex("ff-a2a1-L" + i).feedbackIn(), true))
                    .containsExactly("ff-a2a1-R0", "ff-a2a1-R1", "ff-a2a1-R2");
        }
        for (int j = 0; j < 3; j++) {
            assertThat(names(g.vertex("ff-a2a1-R" + j).feedbackOut(), false))
                    .containsExactly("ff-a2a1-L0", "ff-a2a1-L1");
            assertThat(g.vertex("ff-a2a1-R" + j).forwardOut()).isEmpty();
        }
    }
}
