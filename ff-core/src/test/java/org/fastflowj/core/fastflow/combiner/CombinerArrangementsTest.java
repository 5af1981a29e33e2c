package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.GraphBuildException;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Behaviour of FastFlow's tests/test_combine.cpp: a five-stage pipeline (source, three filters, sink) gives the same result however its stages are fused with combine_nodes, including the whole program as one combiner. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CombinerArrangementsTest {

    private static final long TASKS = 100_000;

    static final class First extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= TASKS; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    static final class Second extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Third extends Node<Long, Void> {
        long count;
        long sum;

        @Override
        protected Void svc(Long in) {
            count++;
            sum += in;
            return goOn();
        }
    }

    /** The five nodes of one arrangement: _1 source, _2.._4 filters, _5 sink. */
    record Stages(First s1, Second s2, Second s3, Second s4, Third s5) {
        static Stages fresh() {
            return new Stages(new First(), new Second(), new Second(), new Second(), new Third());
        }
    }

    private static Arguments arrangement(String name, Function<Stages, BuildingBlock> build) {
        return Arguments.of(name, build);
    }

    static Stream<Arguments> arrangements() {
        return Stream.of(
                arrangement("plain pipeline", s -> new Pipeline(s.s1, s.s2, s.s3, s.s4, s.s5)),
                arrangement(
                        "TEST0 one combiner",
                        s -> Combiner.of(s.s1, Combiner.of(s.s2, Combiner.of(s.s3, Combiner.of(s.s4, s.s5))))),
                arrangement(
                        "TEST1",
                        s -> new Pipeline(s.s1, Combiner.of(Combiner.of(s.s2, s.s3), Combiner.of(s.s4, s.s5)))),
                arrangement("TEST2", s -> new Pipeline(s.s1, s.s2, Combiner.of(s.s3, Combiner.of(s.s4, s.s5)))),
                arrangement("TEST3", s -> new Pipeline(s.s1, s.s2, s.s3, Combiner.of(s.s4, s.s5))),
                arrangement("TEST4", s -> new Pipeline(s.s1, Combiner.of(s.s2, s.s3), Combiner.of(s.s4, s.s5))),
                arrangement(
                        "TEST5",
                        s -> new Pipeline(Combiner.of(Combiner.of(s.s1, s.s2), s.s3), Combiner.of(s.s4, s.s5))),
                arrangement("TEST6", s -> new Pipeline(Combiner.of(s.s1, s.s2), Combiner.of(s.s3, s.s4), s.s5)),
                arrangement("TEST7", s -> new Pipeline(s.s1, Combiner.of(s.s2, Combiner.of(s.s3, s.s4)), s.s5)),
                arrangement(
                        "TEST8-10",
                        s -> new Pipeline(Combiner.of(Combiner.of(s.s1, s.s2), Combiner.of(s.s3, s.s4)), s.s5)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("arrangements")
    void shouldDeliverEveryTaskToTheSinkHoweverTheStagesAreFused(String name, Function<Stages, BuildingBlock> build) {
        Stages stages = Stages.fresh();
        build.apply(stages).runAndWaitEnd();

        assertThat(stages.s5.count).isEqualTo(TASKS);
        assertThat(stages.s5.sum).isEqualTo(TASKS * (TASKS + 1) / 2);
    }

    static final class MiStage extends MultiInputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class MoStage extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    /**
     * TEST11 fuses comb(mo, mo) with comb(mi, mi). FastFlow accepts a multi-output node (or a combiner
     * ending with one) as a combiner's first node; here that is refused at once (docs "Combiner": only
     * the second owns the output channels), so the multi-output half is written with plain nodes.
     */
    @Test
    void shouldRefuseAMultiOutputFirstNodeButRunTheMultiInputHalf() {
        assertThatThrownBy(() -> Combiner.of(new MoStage(), new MoStage())).isInstanceOf(GraphBuildException.class);
        assertThatThrownBy(() -> Combiner.of(Combiner.of(new Second(), new MoStage()), new MiStage()))
                .isInstanceOf(GraphBuildException.class);

        Third sink = new Third();
        new Pipeline(
                        new First(),
                        Combiner.of(Combiner.of(new Second(), new Second()), Combiner.of(new MiStage(), new MiStage())),
                        sink)
                .runAndWaitEnd();
        assertThat(sink.count).isEqualTo(TASKS);
    }
}
