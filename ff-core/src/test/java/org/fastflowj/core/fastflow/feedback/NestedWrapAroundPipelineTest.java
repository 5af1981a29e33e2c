package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_multi_input5.cpp: three nested wrap-arounds, so the head gets three feedback
 * channels; odd items come back from stage 1, small even ones from stage 2, the rest from stage 3.
 * (FastFlow's stage 1 has a leftover early {@code return task}; this test uses the routing its dead code and its
 * stage-3 assertion describe.)
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NestedWrapAroundPipelineTest {

    static final long N = 1000;

    static final class Head extends MultiInputNode<Long, Long> {
        final TreeMap<Integer, List<Long>> backByChannel = new TreeMap<>();
        int feedback = -1;
        int forward = -1;
        long counter;

        @Override
        protected Long svc(Long task) {
            if (task == null) {
                for (long i = 1; i <= N; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            feedback = feedbackChannels();
            forward = inputChannels();
            assertThat(fromFeedback()).isTrue();
            backByChannel
                    .computeIfAbsent(inputChannel(), k -> new ArrayList<>())
                    .add(task);
            return ++counter == N ? eos() : goOn();
        }
    }

    /** Stage 1: odd items back to the head, even ones forward. */
    static final class OddBack extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long task) {
            if ((task & 1) == 1) {
                sendFeedbackTo(task, 0);
            } else {
                sendOutTo(task, 0);
            }
            return goOn();
        }
    }

    /** Stage 2: items up to N/2 back, bigger ones forward. */
    static final class SmallBack extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long task) {
            if (task <= N / 2) {
                sendFeedbackTo(task, 0);
            } else {
                sendOutTo(task, 0);
            }
            return goOn();
        }
    }

    static final class Last extends Node<Long, Long> {
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Long svc(Long task) {
            seen.add(task);
            return task; // back to the head
        }
    }

    @Test
    void shouldRouteEachItemBackOnTheFeedbackChannelOfTheStageThatReturnedIt() {
        Head head = new Head();
        Last last = new Last();
        Pipeline inner = new Pipeline(head, new OddBack()).wrapAround();
        Pipeline middle = new Pipeline(inner, new SmallBack()).wrapAround();
        Pipeline outer = new Pipeline(middle, last).wrapAround();
        outer.runAndWaitEnd();

        assertThat(last.seen)
                .containsExactlyElementsOf(LongStream.rangeClosed(N / 2 + 1, N)
                        .filter(x -> x % 2 == 0)
                        .boxed()
                        .toList());
        assertThat(head.forward).isZero();
        assertThat(head.feedback).isEqualTo(3);
        assertThat(head.counter).isEqualTo(N);
        List<List<Long>> back = new ArrayList<>(head.backByChannel.values());
        assertThat(back).hasSize(3);
        List<Long> odd =
                LongStream.rangeClosed(1, N).filter(x -> x % 2 == 1).boxed().toList();
        List<Long> smallEven =
                LongStream.rangeClosed(1, N / 2).filter(x -> x % 2 == 0).boxed().toList();
        List<Long> bigEven = LongStream.rangeClosed(N / 2 + 1, N)
                .filter(x -> x % 2 == 0)
                .boxed()
                .toList();
        // each feedback channel carries one stage's returns, in order (FIFO per channel)
        assertThat(back).containsExactlyInAnyOrder(odd, smallEven, bigEven);
    }
}
