package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test3.cpp: two identical stages in a wrapped-around pipeline pass one counter back and forth, each adding it to its sum and incrementing it, until it reaches streamlen; the second stage prints Sum: 249500. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class WrappedTwoStagePipelineTest {

    static final class Stage extends Node<Integer, Integer> {
        private final int streamlen;
        long sum;
        int calls;
        boolean ended;

        Stage(int streamlen) {
            this.streamlen = streamlen;
        }

        @Override
        protected Integer svc(Integer t) {
            calls++;
            int next;
            if (t == null) {
                next = 0;
            } else {
                sum += t;
                next = t + 1;
            }
            return next == streamlen ? eos() : Integer.valueOf(next);
        }

        @Override
        protected void svcEnd() {
            ended = true;
        }
    }

    @Test
    void shouldCirculateTheCounterUntilTheHeadEndsTheLoop() {
        Stage first = new Stage(1000);
        Stage second = new Stage(1000);
        new Pipeline(first, second).wrapAround().runAndWaitEnd();

        assertThat(second.sum).isEqualTo(249_500L); // 0 + 2 + ... + 998, the value test3 prints
        assertThat(first.sum).isEqualTo(250_000L); // 1 + 3 + ... + 999
        assertThat(first.calls).isEqualTo(501); // the initial null, then 1, 3, ..., 999
        assertThat(second.calls).isEqualTo(500);
        assertThat(first.ended).isTrue();
        assertThat(second.ended).isTrue();
    }
}
