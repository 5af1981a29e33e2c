package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.GraphCompiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A farm whose workers and collector both feed back to the emitter (the shape of FastFlow's
 * tests/test_multi_input11.cpp): odd results come straight back from the workers, even ones through the
 * collector; the emitter ends once every task came back one way or the other.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FarmWorkerAndCollectorFeedbackTest {
    static final int TASKS = 1000;

    /** Sends TASKS tasks, then counts what comes back on each feedback channel. */
    static final class Master extends MultiInputNode<Integer, Integer> {
        final List<Integer> fromWorkers = new ArrayList<>();
        final List<Integer> fromCollector = new ArrayList<>();
        int channels;

        @Override
        protected Integer svc(Integer back) {
            if (back == null) {
                channels = feedbackChannels();
                for (int i = 0; i < TASKS; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            // feedback channels: worker i is channel i, the collector (wrapAround) comes last
            (inputChannel() == channels - 1 ? fromCollector : fromWorkers).add(back);
            return fromWorkers.size() + fromCollector.size() == TASKS ? eos() : goOn();
        }
    }

    /** Odd tasks go straight back to the emitter; even ones forward to the collector. */
    static final class Splitter extends MultiOutputNode<Integer, Integer> {
        @Override
        protected Integer svc(Integer task) {
            if (task % 2 == 1) {
                sendFeedbackTo(task, 0);
                return goOn();
            }
            return task;
        }
    }

    @Test
    void shouldLetWorkersAndCollectorBothFeedBackToTheEmitter() {
        Master master = new Master();
        Farm farm = Farm.of(3, Splitter::new)
                .emitter(master)
                .collector(Node.<Integer, Integer>of(x -> x))
                .wrapAround()
                .feedbackFromWorkers();
        farm.runAndWaitEnd();

        assertThat(master.channels).isEqualTo(4);
        assertThat(master.fromWorkers).hasSize(TASKS / 2).allMatch(x -> x % 2 == 1);
        assertThat(master.fromCollector).hasSize(TASKS / 2).allMatch(x -> x % 2 == 0);
    }

    @Test
    void shouldWireOneFeedbackEdgePerWorkerPlusTheCollector() {
        Farm farm = Farm.of(3, Splitter::new)
                .emitter(new Master())
                .collector(Node.<Integer, Integer>of(x -> x))
                .wrapAround()
                .feedbackFromWorkers();
        long feedback = GraphCompiler.compile(farm).edges().stream()
                .filter(e -> e.kind() == Edge.Kind.FEEDBACK)
                .count();
        assertThat(feedback).isEqualTo(4);
    }

    @Test
    void shouldRefusePlainWorkersThatCouldNotChooseToFeedBack() {
        Farm farm = Farm.of(2, () -> Node.<Integer, Integer>of(x -> x))
                .emitter(new Master())
                .collector(Node.<Integer, Integer>of(x -> x))
                .feedbackFromWorkers();
        assertThatThrownBy(farm::run)
                .isInstanceOf(GraphBuildException.class)
                .hasMessageContaining("feedbackFromWorkers")
                .hasMessageContaining("MultiOutputNode");
    }
}
