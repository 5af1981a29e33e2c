package org.fastflowj.core.fastflow.optimizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.OptLevel;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.optimize.Optimizer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The optimizer never drops a farm's recoverability, nor the collector its answers come back to. */
class OptimizedRecoverableFarmTest {
    static final class Pass extends Node<Long, Long> {
        @Override
        protected Long svc(Long item) {
            return item;
        }
    }

    @ParameterizedTest
    @EnumSource(OptLevel.class)
    void shouldKeepARecoverableFarmAndItsCollectorWhateverTheLevel(OptLevel level) {
        Farm recoverable = Farm.of(new Pass(), new Pass())
                .emitter(new Pass())
                .collector(new Pass())
                .recoverable();
        BuildingBlock program = new Pipeline(new Pass(), recoverable, Farm.of(new Pass(), new Pass()), new Pass());

        BuildingBlock planned =
                Optimizer.plan(program, RunOptions.defaults().optimize(level)).block();

        List<Farm> farms = new ArrayList<>();
        collectFarms(planned, farms);
        assertThat(farms).filteredOn(Farm::isRecoverable).singleElement().satisfies(farm -> {
            assertThat(farm.collector()).isNotNull();
            assertThat(farm.workers()).hasSize(2);
        });
    }

    private static void collectFarms(BuildingBlock block, List<Farm> into) {
        if (block instanceof Farm farm) {
            into.add(farm);
            farm.workers().forEach(w -> collectFarms(w, into));
        } else if (block instanceof Pipeline pipeline) {
            pipeline.stages().forEach(s -> collectFarms(s, into));
        }
    }
}
