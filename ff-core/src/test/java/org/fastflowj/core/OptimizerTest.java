package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.core.StreamFixtures.ints;
import static org.fastflowj.core.StreamFixtures.source;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;
import org.fastflowj.core.StreamFixtures.Sink;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.optimize.Optimizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each rewrite of the optimizer, on a program run twice from fresh nodes: as written and optimized. The
 * results must match (same multiset; same sequence where the program defines an order) and the thread
 * count must drop as the rewrite promises.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OptimizerTest {
    private static final int ITEMS = 2000;
    private static final RunOptions LEVEL1 =
            RunOptions.defaults().optimize(OptLevel.LEVEL1).maxThreads(64);
    private static final RunOptions LEVEL2 =
            RunOptions.defaults().optimize(OptLevel.LEVEL2).maxThreads(64);

    /** Applies {@code op}; with {@code jitter}, parks a little on some items so that workers overtake each other. */
    static final class Step extends Node<Integer, Integer> {
        private final IntUnaryOperator op;
        private final boolean jitter;

        Step(IntUnaryOperator op, boolean jitter) {
            this.op = op;
            this.jitter = jitter;
        }

        static Step apply(IntUnaryOperator op) {
            return new Step(op, false);
        }

        @Override
        protected Integer svc(Integer in) {
            if (jitter && in % 7 == 0) {
                StreamFixtures.work(20_000);
            }
            return op.applyAsInt(in);
        }
    }

    /** Passes items on, counts them, and sends the count from eosNotify: the end of stream must reach it. */
    static final class CountAtEnd extends Node<Integer, Integer> {
        private int seen;

        @Override
        protected Integer svc(Integer in) {
            seen++;
            return in;
        }

        @Override
        protected void eosNotify(int channel) {
            sendOut(-seen);
        }
    }

    private static int threads(BuildingBlock block, RunOptions options) {
        return GraphCompiler.compile(Optimizer.plan(block, options).block())
                .vertices()
                .size();
    }

    /** Runs a fresh program as written and a fresh one optimized; returns both sinks' items. */
    private static List<List<Integer>> runBoth(Function<Sink<Integer>, BuildingBlock> program, RunOptions options) {
        List<List<Integer>> results = new ArrayList<>();
        for (RunOptions o : List.of(RunOptions.defaults(), options)) {
            Sink<Integer> sink = new Sink<>();
            program.apply(sink).runAndWaitEnd(o);
            results.add(new ArrayList<>(sink.items));
        }
        return results;
    }

    @Test
    void noneRunsTheProgramAsWritten() {
        Pipeline program = new Pipeline(source(3), new Pipeline(Step.apply(x -> x)), new Sink<Integer>());
        Optimizer.Plan plan = Optimizer.plan(program, RunOptions.defaults());
        assertThat(plan.block()).isSameAs(program);
        assertThat(plan.rewrites()).isEmpty();
    }

    @Test
    void nestedPipelinesAreFlattenedKeepingTheSequence() {
        Function<Sink<Integer>, BuildingBlock> program = sink -> new Pipeline(
                source(ITEMS),
                new Pipeline(Step.apply(x -> x + 1), new Pipeline(Step.apply(x -> x * 3), new CountAtEnd())),
                sink);
        Optimizer.Plan plan = Optimizer.plan(program.apply(new Sink<>()), LEVEL1);
        assertThat(((Pipeline) plan.block()).stages()).hasSize(5);
        assertThat(plan.rewrites()).anyMatch(line -> line.startsWith("flattened"));

        List<List<Integer>> results = runBoth(program, LEVEL1);
        assertThat(results.get(1)).containsExactlyElementsOf(results.get(0)).endsWith(-ITEMS);
    }

    @Test
    void aStageBeforeAnOnDemandFarmBecomesItsEmitter() {
        Function<Sink<Integer>, BuildingBlock> program = sink -> new Pipeline(
                source(ITEMS), Farm.of(3, () -> new Step(x -> x * x, true)).onDemand(), sink);
        assertThat(threads(program.apply(new Sink<>()), RunOptions.defaults())).isEqualTo(6);
        assertThat(threads(program.apply(new Sink<>()), LEVEL1)).isEqualTo(5);
        Pipeline planned =
                (Pipeline) Optimizer.plan(program.apply(new Sink<>()), LEVEL1).block();
        assertThat(((Farm) planned.stages().get(0)).isOnDemand()).isTrue();

        List<List<Integer>> results = runBoth(program, LEVEL1);
        assertThat(results.get(1))
                .containsExactlyInAnyOrderElementsOf(results.get(0))
                .containsExactlyInAnyOrderElementsOf(
                        IntStream.range(0, ITEMS).map(x -> x * x).boxed().toList());
    }

    @Test
    void aStageBeforeAFarmWithItsOwnEmitterIsCombinedWithIt() {
        Function<Sink<Integer>, BuildingBlock> program = sink -> new Pipeline(
                source(ITEMS),
                new CountAtEnd(),
                Farm.of(2, () -> Step.apply(x -> x + 1)).emitter(Step.apply(x -> x * 2)),
                sink);
        Pipeline planned =
                (Pipeline) Optimizer.plan(program.apply(new Sink<>()), LEVEL1).block();
        // One stage per emitter: the source keeps its thread, so the emitter's own work stays spread out.
        assertThat(((Farm) planned.stages().get(1)).emitter()).isInstanceOf(Combiner.class);
        // source, CountAtEnd, emitter, 2 workers, sink  ->  source, emitter(CountAtEnd + emitter), 2 workers, sink
        assertThat(threads(program.apply(new Sink<>()), LEVEL1)).isEqualTo(5);

        List<List<Integer>> results = runBoth(program, LEVEL1);
        assertThat(results.get(1))
                .containsExactlyInAnyOrderElementsOf(results.get(0))
                .contains(-2 * ITEMS + 1);
    }

    @Test
    void anOrderedFarmLosesItsDefaultCollectorToTheNextStageAndKeepsTheOrder() {
        Function<Sink<Integer>, BuildingBlock> program = sink -> new Pipeline(
                source(ITEMS), Farm.of(4, () -> new Step(x -> x + 10, true)).ordered(64), new CountAtEnd(), sink);
        // source, emitter, 4 workers, collector, CountAtEnd, sink  ->  emitter(source), 4 workers,
        // collector(CountAtEnd), sink
        assertThat(threads(program.apply(new Sink<>()), RunOptions.defaults())).isEqualTo(9);
        assertThat(threads(program.apply(new Sink<>()), LEVEL1)).isEqualTo(7);

        List<List<Integer>> results = runBoth(program, LEVEL1);
        List<Integer> expected =
                new ArrayList<>(IntStream.range(10, ITEMS + 10).boxed().toList());
        expected.add(-ITEMS);
        assertThat(results.get(0)).containsExactlyElementsOf(expected);
        assertThat(results.get(1)).containsExactlyElementsOf(expected);
    }

    @Test
    void sixSequentialStagesAreFusedEvenlyDownToTheThreadBudget() {
        Function<Sink<Integer>, BuildingBlock> program = sink -> new Pipeline(
                source(ITEMS),
                Step.apply(x -> x + 1),
                Step.apply(x -> x * 2),
                new CountAtEnd(),
                Step.apply(x -> x - 3),
                sink);
        RunOptions twoThreads = LEVEL1.maxThreads(2);
        Optimizer.Plan plan = Optimizer.plan(program.apply(new Sink<>()), twoThreads);
        List<BuildingBlock> stages = ((Pipeline) plan.block()).stages();
        assertThat(stages).hasSize(2).allMatch(stage -> stage instanceof Combiner);
        assertThat(plan.block().toDot(RunOptions.defaults()))
                .contains("CountAtEnd")
                .doesNotContain("Step\\nStep\\nStep\\nStep");
        assertThat(plan.options().waitStrategy()).isEqualTo(WaitStrategy.BACKOFF);

        List<List<Integer>> results = runBoth(program, twoThreads);
        assertThat(results.get(1)).containsExactlyElementsOf(results.get(0)).endsWith(-ITEMS - 3);
    }

    @Test
    void aProgramStillOverBudgetWaitsBlocking() {
        Function<Sink<Integer>, BuildingBlock> program =
                sink -> new Pipeline(source(ITEMS), Farm.of(6, () -> Step.apply(x -> -x)), sink);
        Optimizer.Plan plan = Optimizer.plan(program.apply(new Sink<>()), LEVEL1.maxThreads(2));
        assertThat(plan.options().waitStrategy()).isEqualTo(WaitStrategy.BLOCKING);
        assertThat(plan.rewrites()).anyMatch(line -> line.contains("BLOCKING"));
        assertThat(plan.options().autoThreadMapping())
                .as("threads that share CPUs stay unpinned")
                .isFalse();

        List<List<Integer>> results = runBoth(program, LEVEL1.maxThreads(2));
        assertThat(results.get(1))
                .containsExactlyInAnyOrderElementsOf(results.get(0))
                .hasSize(ITEMS);
    }

    @Test
    void aProgramFusedWithinTheCpusPinsEachThreadToACpuOfItsOwn() {
        Pipeline program = new Pipeline(source(3), Step.apply(x -> x), Step.apply(x -> x), new Sink<Integer>());
        Optimizer.Plan plan = Optimizer.plan(program, LEVEL1.maxThreads(1));
        assertThat(plan.options().autoThreadMapping()).isTrue();
        assertThat(plan.options().waitStrategy()).isEqualTo(WaitStrategy.BACKOFF);
        assertThat(plan.rewrites()).anyMatch(line -> line.contains("1 threads, each pinned to a CPU of its own"));
    }

    @Test
    void aMappingTheProgramChoseIsKept() {
        Pipeline program = new Pipeline(source(3), Step.apply(x -> x), new Sink<Integer>());
        Optimizer.Plan unpinned = Optimizer.plan(program, LEVEL1.maxThreads(1).threadMapping(""));
        assertThat(unpinned.options().autoThreadMapping()).isFalse();
        assertThat(unpinned.options().cpus()).isEmpty();
        Optimizer.Plan listed = Optimizer.plan(program, LEVEL1.maxThreads(1).threadMapping("0"));
        assertThat(listed.options().autoThreadMapping()).isFalse();
        assertThat(listed.options().cpus()).containsExactly(0);
        assertThat(listed.rewrites()).noneMatch(line -> line.contains("pinned"));
    }

    @Test
    void aProgramWithGroupsIsNotPinned() {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs two CPUs");
        Pipeline program = new Pipeline(source(3), new Sink<Integer>());
        program.createGroup("G1");
        Optimizer.Plan plan = Optimizer.plan(program, LEVEL1.maxThreads(2));
        assertThat(plan.options().autoThreadMapping())
                .as("the processes of a distributed run may share a machine")
                .isFalse();
    }

    /** Loop head: sends 0..n-1 once, then takes the fed-back results and ends when all came back. */
    static final class LoopHead extends Node<Integer, Integer> {
        private final int n;
        final List<Integer> back = new ArrayList<>();

        LoopHead(int n) {
            this.n = n;
        }

        @Override
        protected Integer svc(Integer in) {
            if (in == null) {
                for (int i = 0; i < n; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            back.add(in);
            return back.size() == n ? eos() : goOn();
        }
    }

    @Test
    void aWrappedPipelineKeepsItsLoopWhenFused() {
        List<List<Integer>> results = new ArrayList<>();
        RunOptions oneThread = LEVEL1.maxThreads(1);
        for (RunOptions o : List.of(RunOptions.defaults(), oneThread)) {
            LoopHead head = new LoopHead(500);
            Pipeline loop = new Pipeline(head, Step.apply(x -> x + 1), Step.apply(x -> x * 2), Step.apply(x -> x - 1))
                    .wrapAround();
            assertThat(threads(loop, o)).isEqualTo(o == oneThread ? 2 : 4);
            loop.runAndWaitEnd(o);
            results.add(head.back);
        }
        assertThat(results.get(1))
                .containsExactlyElementsOf(results.get(0))
                .containsExactlyElementsOf(IntStream.range(0, 500)
                        .map(x -> (x + 1) * 2 - 1)
                        .boxed()
                        .toList());
    }

    @Test
    void nothingIsPutInFrontOfAFarmWithFeedback() {
        Farm masterWorker =
                Farm.of(2, () -> Step.apply(x -> x)).emitter(Step.apply(x -> x)).wrapAround();
        Pipeline program = new Pipeline(source(3), masterWorker);
        Optimizer.Plan plan = Optimizer.plan(program, LEVEL1);
        assertThat(plan.block()).isSameAs(program);
    }

    @Test
    void aProgramWithGroupsIsRunAsWritten() {
        Pipeline program = new Pipeline(source(3), new Pipeline(Step.apply(x -> x), Step.apply(x -> x)), new Sink<>());
        program.createGroup("G1");
        Optimizer.Plan plan = Optimizer.plan(program, LEVEL1.maxThreads(1));
        assertThat(plan.block()).isSameAs(program);
        assertThat(plan.rewrites()).allMatch(line -> line.contains("BLOCKING"));
    }

    @Test
    void stagesInGroupsOfTheirOwnAreNeitherFusedNorMergedAcrossTheBoundary() {
        Node<Void, Integer> first = source(3);
        Farm farm = Farm.of(2, () -> Step.apply(x -> x));
        Pipeline program = new Pipeline(first, farm, Step.apply(x -> x), new Sink<Integer>());
        program.createGroup("G1").include(first).include(farm);
        program.createGroup("G2")
                .include(program.stages().get(2))
                .include(program.stages().get(3));
        Optimizer.Plan plan = Optimizer.plan(program, LEVEL2.maxThreads(2));
        assertThat(plan.block()).isSameAs(program);
        assertThat(((Pipeline) plan.block()).stages()).containsExactlyElementsOf(program.stages());
    }

    @Test
    void level2MergesFarmsOfEqualWidthIntoCombinedWorkers() {
        Function<Sink<Integer>, BuildingBlock> program = sink -> new Pipeline(
                source(ITEMS),
                Farm.of(3, () -> new Step(x -> x + 1, true)),
                Farm.of(3, () -> Step.apply(x -> x * 5)).onDemand(),
                sink);
        // source, emitter, 3, emitter, 3, sink  ->  emitter(source), 3 combined workers, sink
        assertThat(threads(program.apply(new Sink<>()), RunOptions.defaults())).isEqualTo(10);
        assertThat(threads(program.apply(new Sink<>()), LEVEL1)).isEqualTo(9);
        assertThat(threads(program.apply(new Sink<>()), LEVEL2)).isEqualTo(5);

        List<List<Integer>> results = runBoth(program, LEVEL2);
        assertThat(results.get(1))
                .containsExactlyInAnyOrderElementsOf(results.get(0))
                .hasSize(ITEMS);
    }

    @Test
    void level2JoinsFarmsOfOtherWidthsInAnAllToAllThatKeepsTheSecondFarmsScheduling() {
        Function<Sink<Integer>, BuildingBlock> program = sink -> new Pipeline(
                source(ITEMS),
                Farm.of(3, () -> new Step(x -> x + 1, true)),
                Farm.of(2, () -> Step.apply(x -> x * 5)).onDemand(),
                new CountAtEnd(),
                sink);
        // source, emitter, 3, emitter, 2, CountAtEnd, sink  ->  emitter(source), a2a(3; 2), CountAtEnd, sink
        assertThat(threads(program.apply(new Sink<>()), RunOptions.defaults())).isEqualTo(10);
        assertThat(threads(program.apply(new Sink<>()), LEVEL2)).isEqualTo(8);
        Pipeline planned =
                (Pipeline) Optimizer.plan(program.apply(new Sink<>()), LEVEL2).block();
        AllToAll shuffle = (AllToAll) ((Farm) planned.stages().get(0)).workers().get(0);
        assertThat(shuffle.isOnDemand()).isTrue();

        List<List<Integer>> results = runBoth(program, LEVEL2);
        assertThat(results.get(1))
                .containsExactlyInAnyOrderElementsOf(results.get(0))
                .hasSize(ITEMS + 1)
                .endsWith(-ITEMS);
    }

    @Test
    void level2MergesTwoOrderedFarmsIntoOneOrderedFarm() {
        Function<Sink<Integer>, BuildingBlock> program = sink -> new Pipeline(
                source(ITEMS),
                Farm.of(2, () -> new Step(x -> x + 1, true)).ordered(),
                Farm.of(2, () -> new Step(x -> x * 2, true)).ordered(),
                sink);
        assertThat(threads(program.apply(new Sink<>()), LEVEL2)).isEqualTo(4);

        List<List<Integer>> results = runBoth(program, LEVEL2);
        assertThat(results.get(1))
                .containsExactlyElementsOf(results.get(0))
                .containsExactlyElementsOf(
                        ints(ITEMS).stream().map(x -> (x + 1) * 2).toList());
    }

    @Test
    void level2MovesACollectorIntoTheNextFarmsEmitter() {
        Function<Sink<Integer>, BuildingBlock> program = sink -> new Pipeline(
                source(ITEMS),
                Farm.of(2, () -> Step.apply(x -> x + 1)).collector(new CountAtEnd()),
                Farm.of(3, () -> Step.apply(x -> x * 2)),
                sink);
        assertThat(threads(program.apply(new Sink<>()), LEVEL1)).isEqualTo(9);
        assertThat(threads(program.apply(new Sink<>()), LEVEL2)).isEqualTo(8);

        List<List<Integer>> results = runBoth(program, LEVEL2);
        assertThat(results.get(1))
                .containsExactlyInAnyOrderElementsOf(results.get(0))
                .contains(-2 * ITEMS);
    }

    @Test
    void theWorkerPipelinesOfAnOrderedFarmAreFusedAlikeAndKeepTheOrder() {
        Function<Sink<Integer>, BuildingBlock> program = sink -> new Pipeline(
                source(ITEMS),
                Farm.of(2, () -> new Pipeline(new Step(x -> x + 1, true), Step.apply(x -> x * 3), new CountAtEnd()))
                        .ordered(),
                sink);
        // source, emitter, 2 x 3 stages, collector, sink
        assertThat(threads(program.apply(new Sink<>()), RunOptions.defaults())).isEqualTo(10);
        // emitter(source), 2 x 1 combined worker, collector(sink)
        assertThat(threads(program.apply(new Sink<>()), LEVEL1.maxThreads(4))).isEqualTo(4);

        List<List<Integer>> results = runBoth(program, LEVEL1.maxThreads(4));
        assertThat(results.get(1)).containsExactlyElementsOf(results.get(0));
        assertThat(results.get(1).stream().filter(x -> x >= 0).toList())
                .containsExactlyElementsOf(
                        IntStream.range(0, ITEMS).map(x -> (x + 1) * 3).boxed().toList());
    }
}
