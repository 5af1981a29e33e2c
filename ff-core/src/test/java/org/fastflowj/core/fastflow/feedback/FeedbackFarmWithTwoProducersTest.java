package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_multi_input7.cpp: a wrapped farm (workers back to emitter) fed by two source
 * workers; odd results go round again, and the emitter ends the farm once both inputs ended and nothing is in
 * flight.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FeedbackFarmWithTwoProducersTest {

    static final long N = 10;
    static final int PRODUCERS = 2;

    static final class Producer extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = id() + 1; i <= N; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    static final class Decrement extends Node<Long, Long> {
        @Override
        protected Long svc(Long t) {
            assertThat(t).isGreaterThan(1L);
            return t - 1;
        }
    }

    static final class Emitter extends MultiInputNode<Long, Long> {
        final List<Long> back = new ArrayList<>();
        final List<Integer> inputEnds = new ArrayList<>();
        long inFlight;
        int channels;

        @Override
        protected Long svc(Long t) {
            channels = inputChannels();
            if (!fromFeedback()) {
                if (t == 1) {
                    return goOn();
                }
                inFlight++;
                return t;
            }
            back.add(t);
            if (t != 1 && (t & 1) == 1) {
                return t; // round again
            }
            inFlight--;
            return inFlight == 0 && inputEnds.size() == PRODUCERS ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            inputEnds.add(channel);
            if (inputEnds.size() == PRODUCERS && inFlight == 0) {
                sendOut(eos());
            }
        }
    }

    @Test
    void shouldEndOnlyWhenBothInputsEndedAndEveryTaskCameBack() {
        Emitter emitter = new Emitter();
        Farm producers = Farm.of(PRODUCERS, Producer::new);
        Farm loop = Farm.of(2, Decrement::new).emitter(emitter).wrapAround();
        new Pipeline(producers, loop).runAndWaitEnd();

        // every task t in 2..10 (sent by both producers) comes back as t-1, and once more as t-2 if t-1 was odd and > 1
        List<Long> expected = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            for (long t = 2; t <= N; t++) {
                expected.add(t - 1);
                if (t - 1 != 1 && ((t - 1) & 1) == 1) {
                    expected.add(t - 2);
                }
            }
        }
        assertThat(emitter.back).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(emitter.back).hasSize(26);
        assertThat(emitter.inputEnds).containsExactlyInAnyOrder(0, 1);
        assertThat(emitter.channels).isEqualTo(PRODUCERS);
        assertThat(emitter.inFlight).isZero();
    }
}
