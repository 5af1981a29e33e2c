package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test3_farm.cpp: a wrapped-around pipeline of two farms whose first emitter sends the whole stream and ends at once; the run terminates. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WrappedPipelineOfFarmsTest {

    static final class Stage extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer task) {
            return task;
        }
    }

    /** Loop head: on its start call sends the stream and ends the loop. */
    static final class Emitter extends Node<Integer, Integer> {
        private final int length;
        int calls;

        Emitter(int length) {
            this.length = length;
        }

        @Override
        protected Integer svc(Integer in) {
            calls++;
            if (in == null) {
                for (int i = 0; i < length; i++) {
                    sendOut(i);
                }
                return eos();
            }
            return goOn();
        }
    }

    /** Collector re-emitting what it gets with sendOut. */
    static final class Collector extends Node<Integer, Integer> {
        final List<Integer> seen = new ArrayList<>();

        @Override
        protected Integer svc(Integer task) {
            seen.add(task);
            sendOut(task);
            return goOn();
        }
    }

    @Test
    void shouldDeliverTheWholeStreamToTheLastCollectorAndTerminate() {
        int length = 1000;
        Emitter emitter = new Emitter(length);
        Collector first = new Collector();
        Collector last = new Collector();
        Farm f1 = Farm.of(new Stage()).emitter(emitter).collector(first);
        Farm f2 = Farm.of(new Stage()).collector(last);
        new Pipeline(f1, f2).wrapAround().runAndWaitEnd();

        List<Integer> expected = IntStream.range(0, length).boxed().toList();
        assertThat(first.seen).containsExactlyElementsOf(expected); // one worker: order kept
        assertThat(last.seen).containsExactlyElementsOf(expected);
        // the head ended with its start call; what came back afterwards was dropped
        assertThat(emitter.calls).isEqualTo(1);
    }

    /** Reduced form of the same shape: a loop head that sends its stream and ends at once, then one stage. */
    @Test
    void shouldDeliverItemsSentBeforeTheHeadsEosToTheLastStageOfTheLoop() {
        Emitter head = new Emitter(1000);
        Collector last = new Collector();
        new Pipeline(head, last).wrapAround().runAndWaitEnd();

        assertThat(last.seen)
                .containsExactlyElementsOf(IntStream.range(0, 1000).boxed().toList());
    }
}
