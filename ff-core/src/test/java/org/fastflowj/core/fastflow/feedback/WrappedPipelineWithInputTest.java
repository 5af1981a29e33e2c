package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.testing.FfTestNodes.Range;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_multi_input4.cpp: a source feeding a wrapped two-stage pipeline whose head
 * (multi-input) forwards input items, drops returning ones, and sends EOS from eosnotify.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WrappedPipelineWithInputTest {

    static final class Head extends MultiInputNode<Long, Long> {
        final List<Long> back = new ArrayList<>();
        final List<String> channels = new ArrayList<>();

        @Override
        protected Long svc(Long task) {
            if (channels.isEmpty()) {
                channels.add(inputChannels() + " forward, " + feedbackChannels() + " feedback");
            }
            if (!fromFeedback()) {
                return task;
            }
            back.add(task);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            sendOut(eos());
        }
    }

    static final class Echo extends Node<Long, Long> {
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Long svc(Long task) {
            seen.add(task);
            return task; // goes back to the head
        }
    }

    @Test
    void shouldPassEveryInputItemThroughTheLoopAndEndWhenTheHeadSendsEos() {
        Head head = new Head();
        Echo echo = new Echo();
        Pipeline loop = new Pipeline(head, echo).wrapAround();
        new Pipeline(new Range(1, 1000), loop).runAndWaitEnd();

        List<Long> all = LongStream.rangeClosed(1, 1000).boxed().toList();
        assertThat(echo.seen).containsExactlyElementsOf(all);
        // the feedback is a FIFO: what came back before the EOS is a prefix of the stream
        assertThat(head.back).containsExactlyElementsOf(all.subList(0, head.back.size()));
        assertThat(head.channels).containsExactly("1 forward, 1 feedback");
    }
}
