package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.testing.FfTestNodes.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_multi_output.cpp: a wrapped two-stage pipeline feeding a third stage; the
 * multi-output stage sends every item back and odd ones forward too. FastFlow's single shared channel list
 * (0 = back, 1 = forward) is our sendFeedbackTo(0) / sendOutTo(0).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MultiOutputBackAndForwardTest {

    static final long N = 10;

    /** Loop head: sends 1, and on each return the next number, until N came back. */
    static final class Ticker extends Node<Long, Long> {
        final List<Long> back = new ArrayList<>();
        long k = 1;

        @Override
        protected Long svc(Long task) {
            if (task == null) {
                sendOut(k);
                return goOn();
            }
            back.add(task);
            if (k++ == N) {
                return eos();
            }
            return k;
        }
    }

    static final class Splitter extends MultiOutputNode<Long, Long> {
        final List<String> shape = new ArrayList<>();

        @Override
        protected Long svc(Long t) {
            if (shape.isEmpty()) {
                shape.add(outputChannels() + " forward, " + feedbackChannels() + " feedback");
            }
            if ((t & 1) == 1) {
                sendOutTo(t, 0);
            }
            sendFeedbackTo(t, 0);
            return goOn();
        }
    }

    @Test
    void shouldSendEveryItemBackAndOddItemsForward() {
        Ticker a = new Ticker();
        Splitter b = new Splitter();
        Record c = new Record();
        new Pipeline(new Pipeline(a, b).wrapAround(), c).runAndWaitEnd();

        assertThat(a.back).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(c.items).containsExactly(1L, 3L, 5L, 7L, 9L);
        assertThat(c.ended).isTrue();
        assertThat(b.shape).containsExactly("1 forward, 1 feedback");
    }
}
