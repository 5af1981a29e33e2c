package org.fastflowj.core.fastflow.farm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_ofarm.cpp and tests/test_ofarm2.cpp: an ordered farm (also on-demand) keeps input order though worker 0 is slow. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OrderedFarmKeepsInputOrderTest {

    static final class Start extends Node<Void, Long> {
        private final int length;

        Start(int length) {
            this.length = length;
        }

        @Override
        protected Long svc(Void none) {
            for (long j = 1; j <= length; j++) {
                sendOut(j);
            }
            return eos();
        }
    }

    /** Worker 0 sleeps on every task so that the others overtake it. */
    static final class SlowFirstWorker extends Node<Long, Long> {
        private final Random random = new Random(131071);

        @Override
        protected Long svc(Long task) throws InterruptedException {
            if (id() == 0) {
                Thread.sleep(random.nextInt(2)); // worker 0 is slow: results come back out of order
            }
            return task;
        }
    }

    static final class Stop extends Node<Long, Void> {
        final List<Long> received = new ArrayList<>();

        @Override
        protected Void svc(Long task) {
            received.add(task);
            return goOn();
        }
    }

    @Test
    void shouldKeepFifoOrderThroughAnOrderedFarmWithASlowWorker() {
        int length = 300;
        Stop stop = new Stop();
        new Pipeline(new Start(length), Farm.of(3, SlowFirstWorker::new).ordered(), stop).runAndWaitEnd();

        assertThat(stop.received)
                .containsExactlyElementsOf(
                        LongStream.rangeClosed(1, length).boxed().toList());
    }

    /** Multi-output emitter sending one task per call, counting down from length - 1 to 1. */
    static final class CountDownStart extends MultiOutputNode<Void, Long> {
        private long remaining;

        CountDownStart(long length) {
            this.remaining = length;
        }

        @Override
        protected Long svc(Void none) {
            if (--remaining > 0) {
                sendOut(remaining);
                return goOn();
            }
            return eos();
        }
    }

    /** Multi-input collector checking that the tasks come in decreasing order. */
    static final class DescendingStop extends MultiInputNode<Long, Void> {
        final List<Long> received = new ArrayList<>();

        @Override
        protected Void svc(Long task) {
            received.add(task);
            return goOn();
        }
    }

    @Test
    void shouldKeepOrderInAnOrderedOnDemandFarmWithEmitterAndCollector() {
        long length = 300;
        DescendingStop stop = new DescendingStop();
        Farm.of(3, SlowFirstWorker::new)
                .emitter(new CountDownStart(length))
                .collector(stop)
                .ordered()
                .onDemand()
                .runAndWaitEnd();

        List<Long> expected = new ArrayList<>();
        for (long t = length - 1; t >= 1; t--) {
            expected.add(t);
        }
        assertThat(stop.received).containsExactlyElementsOf(expected);
    }
}
