package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test7.cpp: in a farm wrapped from collector to emitter, workers count each task down through the loop, and the collector returns EOS once it saw streamlen end marks (-1), which ends the whole farm. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class FarmFeedbackCollectorEndsTest {

    /** Sends 0..streamlen-1 when called with null, then forwards whatever comes back. */
    static final class Emitter extends MultiOutputNode<Integer, Integer> {
        private final int streamlen;
        int fedBack;
        boolean ended;

        Emitter(int streamlen) {
            this.streamlen = streamlen;
        }

        @Override
        protected Integer svc(Integer task) {
            if (task == null) {
                for (int i = 0; i < streamlen; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            fedBack++;
            return task;
        }

        @Override
        protected void svcEnd() {
            ended = true;
        }
    }

    static final class Worker extends Node<Integer, Integer> {
        boolean ended;

        @Override
        protected Integer svc(Integer t) {
            if (t > 0) {
                sendOut(t - 1);
                return goOn();
            }
            return -1;
        }

        @Override
        protected void svcEnd() {
            ended = true;
        }
    }

    static final class Collector extends Node<Integer, Integer> {
        private final int streamlen;
        int marks;
        int passedBack;

        Collector(int streamlen) {
            this.streamlen = streamlen;
        }

        @Override
        protected Integer svc(Integer t) {
            if (t != -1) {
                passedBack++;
                return t;
            }
            return ++marks == streamlen ? eos() : goOn();
        }
    }

    @Test
    void shouldEndTheFarmWhenTheCollectorReturnsEos() {
        int streamlen = 100;
        Emitter emitter = new Emitter(streamlen);
        Collector collector = new Collector(streamlen);
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            workers.add(new Worker());
        }
        Farm farm = Farm.of(workers).emitter(emitter).collector(collector).wrapAround();
        farm.run();
        boolean ended = farm.waitEnd(8, TimeUnit.SECONDS);
        if (!ended) {
            farm.cancel();
        }

        assertThat(collector.marks).isEqualTo(streamlen);
        assertThat(collector.passedBack).isEqualTo(streamlen * (streamlen - 1) / 2); // task i goes round i times
        assertThat(ended).as("the farm ends once its collector returned EOS").isTrue();
        assertThat(emitter.fedBack).isEqualTo(streamlen * (streamlen - 1) / 2);
        assertThat(emitter.ended).isTrue();
        assertThat(workers).allMatch(w -> w.ended);
    }
}
