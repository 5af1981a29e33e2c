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

/** Behaviour of FastFlow's tests/test_dataflow.cpp: a multi-input head sends 1..n into a collector-less farm wrapped back to it, re-sends each returned t as t-1 until it hits 0, and ends when all n chains are done. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class DataflowLoopTest {

    static final class Mu extends MultiInputNode<Long, Long> {
        private final long numtasks;
        long finished;
        long fedBack;

        Mu(long numtasks) {
            this.numtasks = numtasks;
        }

        @Override
        protected Long svc(Long task) {
            if (task == null) {
                for (long i = 1; i <= numtasks; i++) {
                    sendOut(i);
                }
                return goOn();
            }
            fedBack++;
            long t = task - 1;
            if (t > 0) {
                sendOut(t);
            } else if (++finished == numtasks) {
                return eos();
            }
            return goOn();
        }
    }

    static final class Scheduler extends Node<Long, Long> {
        @Override
        protected Long svc(Long task) {
            return task;
        }
    }

    static final class Fu extends Node<Long, Long> {
        long got;

        @Override
        protected Long svc(Long task) {
            got++;
            return task;
        }
    }

    @Test
    void shouldRunEveryChainDownToZeroThenEnd() {
        long numtasks = 1000;
        Mu mu = new Mu(numtasks);
        List<Fu> fus = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            fus.add(new Fu());
        }
        Farm farm = Farm.of(fus).emitter(new Scheduler());
        new Pipeline(mu, farm).wrapAround().runAndWaitEnd();

        long expected = numtasks * (numtasks + 1) / 2; // chain i visits the workers i times
        assertThat(mu.finished).isEqualTo(numtasks);
        assertThat(mu.fedBack).isEqualTo(expected);
        assertThat(fus.stream().mapToLong(f -> f.got).sum()).isEqualTo(expected);
    }
}
