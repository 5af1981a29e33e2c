package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.OptLevel;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.optimize.Optimizer;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The program of {@link FeedbackFarmFeedingNextStageTest} (test_multi_output2.cpp) with three sequential
 * stages after the wrapped farm, run with the optimizer on a budget of 3 threads: the farm and its loop
 * stay as written, the stages after it fuse into one thread, and every task still goes both back to the
 * emitter and through all three stages, whose end-of-stream callback runs once after the last task.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OptimizedFeedbackFarmTest {
    private static final int TASKS = 1000;

    static final class Plus extends Node<Long, Long> {
        private final long add;

        Plus(long add) {
            this.add = add;
        }

        @Override
        protected Long svc(Long task) {
            return task + add;
        }
    }

    static final class Collect extends Node<Long, Void> {
        final List<Long> received = Collections.synchronizedList(new ArrayList<>());
        volatile int endsSeen;
        volatile int receivedAtEnd;

        @Override
        protected Void svc(Long task) {
            received.add(task);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            endsSeen++;
            receivedAtEnd = received.size();
        }
    }

    @ParameterizedTest
    @EnumSource(OptLevel.class)
    void theLoopStaysAndTheStagesAfterItFuse(OptLevel level) {
        FeedbackFarmFeedingNextStageTest.Emitter emitter = new FeedbackFarmFeedingNextStageTest.Emitter(TASKS);
        Farm farm = Farm.of(3, FeedbackFarmFeedingNextStageTest.BothWays::new)
                .emitter(emitter)
                .wrapAround();
        Collect last = new Collect();
        Pipeline program = new Pipeline(farm, new Plus(1), new Plus(10), last);
        RunOptions options = RunOptions.defaults().optimize(level).maxThreads(3);

        Optimizer.Plan plan = Optimizer.plan(program, options);
        // emitter + 3 workers + 3 stages as written; the stages become one thread when optimized
        assertThat(GraphCompiler.compile(plan.block()).vertices()).hasSize(level == OptLevel.NONE ? 7 : 5);
        assertThat(plan.options().waitStrategy())
                .isEqualTo(level == OptLevel.NONE ? WaitStrategy.BACKOFF : WaitStrategy.BLOCKING);
        if (level != OptLevel.NONE) {
            assertThat(((Pipeline) plan.block()).stages().get(0)).isSameAs(farm);
        }

        program.runAndWaitEnd(options);

        assertThat(emitter.back)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, TASKS).boxed().toList());
        assertThat(last.received)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(12, TASKS + 11).boxed().toList());
        assertThat(last.endsSeen).isEqualTo(1);
        assertThat(last.receivedAtEnd).isEqualTo(TASKS);
    }
}
