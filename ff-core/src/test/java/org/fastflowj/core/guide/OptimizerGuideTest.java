package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.OptLevel;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.RunOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: the optimizer and DOT pictures (docs/building-blocks.md, "Optimizer and pictures"). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OptimizerGuideTest {

    static final class Numbers extends Node<Void, Integer> {
        private final int count;
        private int next;

        Numbers(int count) {
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            return next < count ? Integer.valueOf(next++) : eos();
        }
    }

    static final class Sum extends Node<Integer, Void> {
        long total;

        @Override
        protected Void svc(Integer x) {
            total += x;
            return goOn();
        }
    }

    @Test
    void optimizeFusesStagesDownToTheCores() {
        // tag::optimize[]
        Sum sum = new Sum();
        Pipeline program = new Pipeline(
                new Numbers(10_000),
                new Pipeline(Node.of((Integer x) -> x + 1), Node.of((Integer x) -> x * 2)), // flattened
                Node.of((Integer x) -> x - 2),
                sum);
        // 5 threads as written; LEVEL1 fuses neighbouring stages until 2 threads remain
        program.runAndWaitEnd(RunOptions.defaults().optimize(OptLevel.LEVEL1).maxThreads(2));

        assertThat(sum.total).isEqualTo(10_000L * 9_999); // sum of 2x for x below 10 000
        // end::optimize[]
    }

    @Test
    void toDotDrawsTheGraphThatWillRun() {
        // tag::dot[]
        Pipeline program = new Pipeline(
                new Numbers(100),
                Farm.of(3, () -> Node.of((Integer x) -> x * x)).ordered(),
                new Sum());

        String asWritten = program.toDot(); // 7 boxes: source, emitter, 3 workers, collector, sink
        String optimized = program.toDot(RunOptions.defaults().optimize(OptLevel.LEVEL1));
        // Numbers became the emitter and Sum the collector: 5 boxes
        assertThat(asWritten).contains("\"ff-farm1-collector\" [label=\"ff-farm1-collector\\ndefault collector\"");
        assertThat(optimized).contains("subgraph \"cluster_farm1\"").contains("class=\"order\"");
        // Files.writeString(Path.of("program.dot"), optimized);   then: dot -Tsvg program.dot > program.svg
        // end::dot[]
        assertThat(optimized).doesNotContain("default collector").doesNotContain("ff-pipe1-stage0");
    }
}
