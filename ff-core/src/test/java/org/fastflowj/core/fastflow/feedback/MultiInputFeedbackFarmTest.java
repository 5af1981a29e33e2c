package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.testing.FfTestNodes.Identity;
import org.fastflowj.core.testing.FfTestNodes.Range;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_multi_input3.cpp: a wrapped farm (collector back to emitter) fed by a
 * previous farm; the emitter forwards input tasks, drops returning ones, and ends the farm when its input ends.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MultiInputFeedbackFarmTest {

    /** Emitter of the second farm: input tasks go to the workers, tasks coming back are dropped. */
    static final class Dispatch extends MultiInputNode<Long, Long> {
        final List<Long> back = new ArrayList<>();
        int forwardInputs = -1;
        int feedbackInputs = -1;

        @Override
        protected Long svc(Long task) {
            forwardInputs = inputChannels();
            feedbackInputs = feedbackChannels();
            if (!fromFeedback()) {
                return task;
            }
            back.add(task);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            sendOut(eos()); // as FastFlow's broadcast of EOS: in-flight feedback is dropped
        }
    }

    static final class Compute extends Node<Long, Long> {
        final List<Long> computed = new ArrayList<>();

        @Override
        protected Long svc(Long task) {
            computed.add(task);
            return task;
        }
    }

    @Test
    void shouldComputeEveryInputTaskOnceAndEndWhenTheInputEnds() {
        int workers = 3;
        int tasks = 1000;
        Farm first = Farm.of(workers, Identity::new)
                .emitter(new Range(10, 10 + tasks - 1))
                .collector(new Identity());
        Dispatch dispatch = new Dispatch();
        List<Compute> computes = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            computes.add(new Compute());
        }
        Farm second =
                Farm.of(computes).emitter(dispatch).collector(new Identity()).wrapAround();
        new Pipeline(first, second).runAndWaitEnd();

        List<Long> all = new ArrayList<>();
        computes.forEach(c -> all.addAll(c.computed));
        List<Long> expected = LongStream.range(10, 10 + tasks).boxed().toList();
        assertThat(all).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(dispatch.back).doesNotHaveDuplicates().isSubsetOf(expected);
        assertThat(dispatch.forwardInputs).isEqualTo(1); // one collector upstream
        assertThat(dispatch.feedbackInputs).isEqualTo(1); // one collector looping back
    }
}
