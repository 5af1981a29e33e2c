package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.GraphCompiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_combine1.cpp: sequential stages fused into an ordered farm's emitter and
 * collector; each stage adds one to what it gets, so the last stage sees 6 and 7.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CombineWithStagesTest {

    static final long LAST = 10;

    /** n == 0: source of 1 and 2; n in 1..LAST-1: sends in + 1; n == LAST: sink; n < 0: identity. */
    static final class Stage extends Node<Long, Long> {
        final long n;
        final List<Long> got = new ArrayList<>();

        Stage(long n) {
            this.n = n;
        }

        @Override
        protected Long svc(Long in) {
            if (n < 0) {
                return in;
            }
            if (n == 0) {
                sendOut(n + 1);
                sendOut(n + 2);
                return eos();
            }
            got.add(in);
            if (n != LAST) {
                sendOut(in + 1);
            }
            return goOn();
        }
    }

    @Test
    void shouldRunEveryFusedStageInStreamOrder() {
        Stage s0 = new Stage(0);
        Stage s1 = new Stage(1);
        Stage s2 = new Stage(2);
        Stage s3 = new Stage(3);
        Stage s4 = new Stage(4);
        Stage s5 = new Stage(5);
        Stage last = new Stage(LAST);
        var emitter = Combiner.of(Combiner.of(Combiner.of(Combiner.of(s0, s1), s2), s3), new Stage(-1));
        var collector = Combiner.of(Combiner.of(Combiner.of(new Stage(-2), s4), s5), last);
        Farm farm = Farm.of(new Stage(-3), new Stage(-4))
                .emitter(emitter)
                .collector(collector)
                .ordered();
        Pipeline main = new Pipeline(farm);
        main.runAndWaitEnd();

        assertThat(s1.got).containsExactly(1L, 2L);
        assertThat(s2.got).containsExactly(2L, 3L);
        assertThat(s3.got).containsExactly(3L, 4L);
        assertThat(s4.got).containsExactly(4L, 5L);
        assertThat(s5.got).containsExactly(5L, 6L);
        assertThat(last.got).containsExactly(6L, 7L);
        // as in FastFlow, the fused stages cost no thread: emitter, two workers, collector
        assertThat(GraphCompiler.compile(main).vertices()).hasSize(4);
    }
}
