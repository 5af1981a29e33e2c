package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_multi_input10.cpp: a collector-less farm of two workers feeds a wrapped farm whose emitter is a combiner (multi-input counter, multi-output helper) and whose only worker is an all-to-all; the emitter counts tasks out and back and ends when both inputs ended and nothing is in flight. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FeedbackFarmOfAllToAllTest {

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
        final List<Long> got = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            got.add(in);
            return in;
        }
    }

    static final class Emitter extends MultiInputNode<Long, Long> {
        private int neos;
        private long ntasks;
        private boolean eosReceived;
        final List<Long> fromInput = new ArrayList<>();
        final List<Long> back = new ArrayList<>();
        final List<Integer> inputChannelsSeen = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            if (!fromFeedback()) {
                inputChannelsSeen.add(inputChannel());
                fromInput.add(in);
                ++ntasks;
                return in;
            }
            back.add(in);
            --ntasks;
            return ntasks == 0 && eosReceived ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            if (++neos == inputChannels()) {
                eosReceived = true;
                if (ntasks == 0) {
                    sendOut(eos());
                }
            }
        }
    }

    /** Forwards what it gets; the C++ helper's broadcast of EOS at eosnotify is what our run does by itself. */
    static final class EmitterHelper extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    @Test
    void shouldGetEveryTaskBackThroughTheAllToAllThenEnd() {
        Pass w0 = new Pass();
        Pass w1 = new Pass();
        Farm first = Farm.of(w0, w1).emitter(new Generator());
        Emitter emitter = new Emitter();
        List<Pass> seconds = List.of(new Pass(), new Pass());
        AllToAll a2a = new AllToAll().firstSet(new Pass(), new Pass()).secondSet(seconds);
        Farm inner =
                Farm.of(a2a).emitter(Combiner.of(emitter, new EmitterHelper())).wrapAround();
        new Pipeline(first, inner).runAndWaitEnd();

        List<Long> all = LongStream.rangeClosed(1, 10).boxed().toList();
        assertThat(w0.got.size() + w1.got.size()).isEqualTo(10);
        assertThat(emitter.fromInput).containsExactlyInAnyOrderElementsOf(all);
        assertThat(emitter.back).containsExactlyInAnyOrderElementsOf(all);
        assertThat(emitter.inputChannelsSeen).containsOnly(0, 1);
        List<Long> throughSeconds = new ArrayList<>(seconds.get(0).got);
        throughSeconds.addAll(seconds.get(1).got);
        assertThat(throughSeconds).containsExactlyInAnyOrderElementsOf(all);
    }
}
