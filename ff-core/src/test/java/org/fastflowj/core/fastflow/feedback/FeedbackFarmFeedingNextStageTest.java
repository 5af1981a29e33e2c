package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_multi_output2.cpp: a collector-less wrapped farm whose multi-output workers
 * send each task both back to the emitter and on to a multi-input next stage, which must receive every task.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FeedbackFarmFeedingNextStageTest {

    static final class Emitter extends Node<Long, Long> {
        final List<Long> back = new ArrayList<>();
        private long remaining;

        Emitter(long tasks) {
            this.remaining = tasks;
        }

        @Override
        protected Long svc(Long task) {
            if (task == null) {
                for (long i = 1; i <= remaining; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            back.add(task);
            return --remaining <= 0 ? eos() : goOn();
        }
    }

    static final class BothWays extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long task) {
            sendFeedbackTo(task, 0); // to the emitter
            sendOutTo(task, 0); // to the next stage
            return goOn();
        }
    }

    static final class Counter extends MultiInputNode<Long, Void> {
        final List<Long> received = new ArrayList<>();
        int channels;

        @Override
        protected Void svc(Long task) {
            channels = inputChannels();
            received.add(task);
            return goOn();
        }
    }

    @Test
    void shouldDeliverEveryTaskToTheNextStageAndBackToTheEmitter() {
        int tasks = 1000;
        Emitter emitter = new Emitter(tasks);
        Counter next = new Counter();
        Farm farm = Farm.of(3, BothWays::new).emitter(emitter).wrapAround();
        new Pipeline(farm, next).runAndWaitEnd();

        List<Long> all = LongStream.rangeClosed(1, tasks).boxed().toList();
        assertThat(next.received).containsExactlyInAnyOrderElementsOf(all);
        assertThat(emitter.back).containsExactlyInAnyOrderElementsOf(all);
        assertThat(next.channels).isEqualTo(3);
    }
}
