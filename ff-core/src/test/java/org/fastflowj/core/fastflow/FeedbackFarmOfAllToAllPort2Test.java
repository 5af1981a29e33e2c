package org.fastflowj.core.fastflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_multi_input10.cpp: a wrapped farm whose single worker is an all-to-all gets its input from a collector-less farm, its emitter (a combiner) counting tasks out and back and ending once the input ended and every task came back. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FeedbackFarmOfAllToAllPort2Test {

    static final class Generator extends Node<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= 10; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    static final class Pass extends Node<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Emitter extends MultiInputNode<Long, Long> {
        final List<Integer> inputChannels = new ArrayList<>();
        final List<Integer> backChannels = new ArrayList<>();
        final List<Long> back = new ArrayList<>();
        private long inFlight;
        private int eosSeen;
        private boolean inputEnded;

        @Override
        protected Long svc(Long in) {
            if (!fromFeedback()) {
                inputChannels.add(inputChannel());
                inFlight++;
                return in;
            }
            backChannels.add(inputChannel());
            back.add(in);
            return --inFlight == 0 && inputEnded ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            if (++eosSeen == inputChannels()) {
                inputEnded = true;
                if (inFlight == 0) {
                    sendOut(eos());
                }
            }
        }
    }

    /**
     * The emitter's multi-output half. FastFlow's helper also broadcasts EOS from eosnotify; here that
     * would end the emitter at once (sendOut(eos()) ends a node), dropping the tasks on their way back,
     * and the emitter above ends the loop itself when the last task came back.
     */
    static final class EmitterHelper extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    @Test
    void shouldGetEveryTaskBackBeforeEnding() {
        Emitter emitter = new Emitter();
        Farm first = Farm.of(new Pass(), new Pass()).emitter(new Generator());
        AllToAll a2a = new AllToAll().firstSet(new Pass(), new Pass()).secondSet(new Pass(), new Pass());
        Farm loop = Farm.of(a2a).emitter(Combiner.of(emitter, new EmitterHelper())).wrapAround();
        new Pipeline(first, new Pipeline(loop)).runAndWaitEnd();

        assertThat(emitter.inputChannels).hasSize(10).allSatisfy(c -> assertThat(c).isBetween(0, 1));
        assertThat(emitter.back).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(emitter.backChannels).allSatisfy(c -> assertThat(c).isBetween(0, 1));   // from Second0 / Second1
    }
}
