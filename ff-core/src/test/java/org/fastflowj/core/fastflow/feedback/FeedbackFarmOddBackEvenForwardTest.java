package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_multi_output4.cpp: workers of a wrapped farm send even tasks forward and
 * odd ones back; the emitter turns each returned odd task into the next even one until half of them came back.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FeedbackFarmOddBackEvenForwardTest {

    static final class Emitter extends Node<Long, Long> {
        final List<Long> back = new ArrayList<>();
        private final long tasks;
        private long remaining;

        Emitter(long tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Long svc(Long t) {
            if (t == null) {
                for (long i = 0; i < tasks; i++) {
                    sendOut(i + 10);
                }
                remaining = tasks / 2;
                return goOn();
            }
            back.add(t);
            if (--remaining <= 0) {
                return eos();
            }
            return t + 1;
        }
    }

    static final class Router extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long task) {
            if (task % 2 == 0) {
                sendOutTo(task, 0);
            } else {
                sendFeedbackTo(task, 0);
            }
            return goOn();
        }
    }

    static final class Collect extends MultiInputNode<Long, Void> {
        final List<Long> items = new ArrayList<>();

        @Override
        protected Void svc(Long task) {
            items.add(task);
            return goOn();
        }
    }

    @Test
    void shouldForwardEveryEvenTaskAndOneMoreForAllButTheLastReturn() {
        long tasks = 1000;
        Emitter emitter = new Emitter(tasks);
        Collect collector = new Collect();
        new Pipeline(Farm.of(3, Router::new).emitter(emitter).wrapAround(), collector).runAndWaitEnd();

        assertThat(emitter.back).hasSize(500).allMatch(t -> t % 2 == 1);
        assertThat(collector.items).hasSize(500 + 499).allMatch(t -> t % 2 == 0);
        // the 500 originally even tasks, plus t + 1 for every returned odd t except the last one returned
        List<Long> expected = new ArrayList<>();
        for (long i = 10; i < 10 + tasks; i += 2) {
            expected.add(i);
        }
        emitter.back.subList(0, 499).forEach(t -> expected.add(t + 1));
        assertThat(collector.items).containsExactlyInAnyOrderElementsOf(expected);
    }
}
