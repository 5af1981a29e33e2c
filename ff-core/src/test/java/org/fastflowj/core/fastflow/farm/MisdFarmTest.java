package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_MISD.cpp: a multi-output emitter sends even tasks round-robin to the first nw1 workers and odd ones to the other nw2, and each kind of worker asserts the parity it gets. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class MisdFarmTest {

    static final class Emitter extends MultiOutputNode<Void, Long> {
        private final int nw1;
        private final int nw2;
        private final int ntasks;
        final List<Long> sent = new ArrayList<>();
        private int even;
        private int odd;

        Emitter(int nw1, int nw2, int ntasks) {
            this.nw1 = nw1;
            this.nw2 = nw2;
            this.ntasks = ntasks;
        }

        @Override
        protected Long svc(Void none) {
            Random random = new Random(42);
            for (int i = 0; i < ntasks; i++) {
                long t = random.nextInt(10_485_760);
                sent.add(t);
                if (t % 2 != 0) {
                    sendOutTo(t, (odd++ % nw2) + nw1);
                } else {
                    sendOutTo(t, even++ % nw1);
                }
            }
            return eos();
        }
    }

    /** Worker1 (even) or Worker2 (odd): records what it got, emits nothing. */
    static final class Worker extends Node<Long, Void> {
        final List<Long> got = new ArrayList<>();

        @Override
        protected Void svc(Long task) {
            got.add(task);
            return goOn();
        }
    }

    @Test
    void shouldSendEvenTasksToTheFirstWorkersAndOddOnesToTheOthers() {
        int nw1 = 2;
        int nw2 = 3;
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < nw1 + nw2; i++) {
            workers.add(new Worker());
        }
        Emitter emitter = new Emitter(nw1, nw2, 1000);
        Farm.of(workers).emitter(emitter).runAndWaitEnd();

        List<Long> evens = emitter.sent.stream().filter(t -> t % 2 == 0).toList();
        List<Long> odds = emitter.sent.stream().filter(t -> t % 2 != 0).toList();
        for (int i = 0; i < nw1; i++) {
            List<Long> expected = new ArrayList<>();
            for (int k = i; k < evens.size(); k += nw1) {
                expected.add(evens.get(k));
            }
            assertThat(workers.get(i).got).allMatch(t -> t % 2 == 0).containsExactlyElementsOf(expected);
        }
        for (int i = 0; i < nw2; i++) {
            List<Long> expected = new ArrayList<>();
            for (int k = i; k < odds.size(); k += nw2) {
                expected.add(odds.get(k));
            }
            assertThat(workers.get(nw1 + i).got).allMatch(t -> t % 2 != 0).containsExactlyElementsOf(expected);
        }
    }
}
