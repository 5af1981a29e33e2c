package org.fastflowj.core.fastflow.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test4.cpp and tests/test5.cpp: a source of 0..streamlen-1, then a farm of two-stage pipelines with a default collector (test4) or a nested two-stage pipeline (test5), then a sink that prints Sum: 499500. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class PipelineWithNestedPipelinesTest {

    /** Emits 0..streamlen-1: the C++ stage returns NULL once its counter passed streamlen. */
    static final class Stage1 extends Node<Void, Integer> {
        private final int streamlen;
        private int cnt;

        Stage1(int streamlen) {
            this.streamlen = streamlen;
        }

        @Override
        protected Integer svc(Void none) {
            int t = cnt++;
            return cnt > streamlen ? eos() : Integer.valueOf(t);
        }
    }

    static final class Pass extends Node<Integer, Integer> {
        int got;

        @Override
        protected Integer svc(Integer task) {
            got++;
            return task;
        }
    }

    static final class Stage3 extends Node<Integer, Void> {
        long sum;
        int got;
        Long printed;

        @Override
        protected Void svc(Integer t) {
            got++;
            sum += t;
            return goOn();
        }

        @Override
        protected void svcEnd() {
            printed = sum;
        }
    }

    @Test
    void shouldSumTheStreamThroughAFarmOfPipelines() {
        Pass[] first = {new Pass(), new Pass(), new Pass()};
        Pass[] second = {new Pass(), new Pass(), new Pass()};
        Farm farm = Farm.of(
                        new Pipeline(first[0], second[0]),
                        new Pipeline(first[1], second[1]),
                        new Pipeline(first[2], second[2]))
                .collector(Node.of((Integer x) -> x));
        Stage3 sink = new Stage3();
        new Pipeline(new Stage1(1000), farm, sink).runAndWaitEnd();

        assertThat(sink.printed).isEqualTo(499_500L);
        assertThat(sink.got).isEqualTo(1000);
        for (int i = 0; i < 3; i++) {
            assertThat(first[i].got)
                    .as("worker %d's two stages see the same tasks", i)
                    .isEqualTo(second[i].got);
        }
        assertThat(first[0].got + first[1].got + first[2].got).isEqualTo(1000);
    }

    @Test
    void shouldSumTheStreamThroughANestedPipeline() {
        Pass a = new Pass();
        Pass b = new Pass();
        Stage3 sink = new Stage3();
        new Pipeline(new Stage1(1000), new Pipeline(a, b), sink).runAndWaitEnd();

        assertThat(sink.printed).isEqualTo(499_500L);
        assertThat(a.got).isEqualTo(1000);
        assertThat(b.got).isEqualTo(1000);
    }
}
