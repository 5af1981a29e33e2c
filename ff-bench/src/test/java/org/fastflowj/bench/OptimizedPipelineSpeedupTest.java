package org.fastflowj.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.OptLevel;
import org.fastflowj.core.RunOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The benchmark bodies do the same work, item for item and stage for stage, with and without the
 * optimizer and in the sequential bound.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OptimizedPipelineSpeedupTest {
    @Test
    void shouldDoTheSameWorkOnEveryItemInEveryStageWithAndWithoutLevel1() {
        long asWritten = OptimizedPipelineSpeedup.run(5, 10_000, RunOptions.defaults());
        long optimized = OptimizedPipelineSpeedup.run(
                5, 10_000, RunOptions.defaults().optimize(OptLevel.LEVEL1).maxThreads(2));
        assertThat(optimized).isEqualTo(asWritten);
        assertThat(OptimizedPipelineSpeedup.run(5, 10_001, RunOptions.defaults()))
                .isNotEqualTo(asWritten);
    }

    @Test
    void shouldDoThePipelinesWorkInTheSequentialBound() {
        long asWritten = OptimizedPipelineSpeedup.run(5, 10_000, RunOptions.defaults());
        assertThat(OptimizedPipelineSpeedup.sequential(5, 10_000)).isEqualTo(asWritten);
        assertThat(OptimizedPipelineSpeedup.sequential(5, 10_001)).isNotEqualTo(asWritten);
        assertThat(OptimizedPipelineSpeedup.sequential(6, 10_000)).isNotEqualTo(asWritten);
    }

    @Test
    void shouldDoThePipelinesWorkInTheTwoThreadSplitBound() throws InterruptedException {
        long asWritten = OptimizedPipelineSpeedup.run(5, 10_000, RunOptions.defaults());
        assertThat(OptimizedPipelineSpeedup.split(5, 10_000)).isEqualTo(asWritten);
        assertThat(OptimizedPipelineSpeedup.split(5, 10_001)).isNotEqualTo(asWritten);
    }
}
