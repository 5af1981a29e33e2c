package org.fastflowj.core.fastflow.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.OptLevel;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.optimize.Optimizer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * FastFlow's tests/test_optimize.cpp and test_optimize3.cpp run through {@code RunOptions.optimize}
 * instead of hand-written optimized topologies: the same programs, fewer threads, the same observable
 * results (every task through every stage once; input order out of the ordered farm).
 *
 * <p>A FastFlow-J farm has no collector unless it is ordered or given one, which is what FastFlow's
 * {@code remove_collector} leaves, so the six farms of test_optimize are written without collectors.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OptimizeRunOptionTest {
    private static final RunOptions OPTIMIZE = RunOptions.defaults().maxThreads(64);

    private static int threads(BuildingBlock program, RunOptions options) {
        return GraphCompiler.compile(Optimizer.plan(program, options).block())
                .vertices()
                .size();
    }

    /** pipe(First, farm1..farm6, Last): farms 1-4 of 3 workers, farms 5-6 of 2. */
    private static BuildingBlock pipeOfSixFarms(OptimizedPipelineOfFarmsTest.Parts p) {
        Pipeline pipe = new Pipeline(p.first);
        for (int kind = 1; kind <= 6; kind++) {
            List<BuildingBlock> workers = new ArrayList<>();
            for (int i = 0; i < (kind <= 4 ? 3 : 2); i++) {
                workers.add(p.stage(kind));
            }
            pipe.add(Farm.of(workers));
        }
        return pipe.add(p.last);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"NONE, 24", "LEVEL1, 23", "LEVEL2, 7"})
    void sixFarmsDeliverEveryTaskThroughEveryStage(OptLevel level, int expectedThreads) {
        OptimizedPipelineOfFarmsTest.Parts parts = new OptimizedPipelineOfFarmsTest.Parts();
        BuildingBlock program = pipeOfSixFarms(parts);
        RunOptions options = OPTIMIZE.optimize(level);
        // LEVEL2, as optimize_static: farm(First; a2a(3 x comb(W1..W4); 2 x comb(W5, W6))), Last
        assertThat(threads(program, options)).isEqualTo(expectedThreads);

        program.runAndWaitEnd(options);

        assertThat(parts.last.received)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, 2000).boxed().toList());
        for (int kind = 1; kind <= 6; kind++) {
            assertThat(parts.countOf(kind)).as("tasks through stage %d", kind).isEqualTo(2000);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"NONE, 8", "LEVEL1, 6", "LEVEL2, 6"})
    void onDemandOrderedFarmKeepsTheOrderWithFirstAsEmitterAndLastAsCollector(OptLevel level, int expectedThreads) {
        List<OptimizedOrderedFarmTest.Worker> workers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            workers.add(new OptimizedOrderedFarmTest.Worker());
        }
        OptimizedOrderedFarmTest.Last last = new OptimizedOrderedFarmTest.Last();
        Pipeline pipe = new Pipeline(
                new OptimizedOrderedFarmTest.First(), Farm.of(workers).ordered().onDemand(), last);
        RunOptions options = OPTIMIZE.optimize(level);
        assertThat(threads(pipe, options)).isEqualTo(expectedThreads);

        pipe.runAndWaitEnd(options);

        assertThat(last.wrong).as("WRONG ORDERING").isEmpty();
        assertThat(last.counter).isEqualTo(3000);
        assertThat(workers.stream().mapToLong(w -> w.count).sum()).isEqualTo(3000);
    }
}
