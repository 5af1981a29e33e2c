package org.fastflowj.core.fastflow.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.testing.FfTestNodes.Range;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_pipe2.cpp: source, farm with a multi-output emitter and a multi-input
 * collector, and a counting last stage that must see every item.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PipelineWithMultiNodeFarmTest {

    static final class PassOut extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class PassIn extends MultiInputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Worker extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Last extends Node<Long, Void> {
        long counter;
        long sum;

        @Override
        protected Void svc(Long in) {
            counter++;
            sum += in;
            return goOn();
        }
    }

    @Test
    void shouldCountEveryItemAtTheLastStage() {
        long tasks = 10_000;
        Last last = new Last();
        Farm farm = Farm.of(3, Worker::new).emitter(new PassOut()).collector(new PassIn());
        new Pipeline(new Range(1, tasks), farm, last).runAndWaitEnd();

        assertThat(last.counter).isEqualTo(tasks);
        assertThat(last.sum).isEqualTo(LongStream.rangeClosed(1, tasks).sum());
    }
}
