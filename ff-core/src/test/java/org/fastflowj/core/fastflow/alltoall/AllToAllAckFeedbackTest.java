package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_all-to-all11.cpp: a wrapped all-to-all of combiners, R-Workers forwarding each task to a last stage and acknowledging it back, delivers every task to the last stage once and terminates. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AllToAllAckFeedbackTest {

    private static final long ACK = -1L;

    static final class First extends Node<Void, Long> {
        private final long count;

        First(long count) {
            this.count = count;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = 0; i < count; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    /** Multi-output stage before the all-to-all: default policy (round-robin) among the L-Workers. */
    static final class Spread extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    /** Head of an L-Worker: passes tasks on, counts acknowledgements (shared counter), ends at the last one. */
    static final class Gatherer extends MultiInputNode<Long, Long> {
        private final AtomicLong outstanding;

        Gatherer(AtomicLong outstanding) {
            this.outstanding = outstanding;
        }

        @Override
        protected Long svc(Long in) {
            if (fromFeedback()) {
                return outstanding.getAndDecrement() == 1 ? eos() : goOn();
            }
            return in;
        }
    }

    /** Tail of an L-Worker: forwards; at end of input it ends the node (FastFlow: broadcast_task(EOS)). */
    static final class Emitter2 extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }

        @Override
        protected void eosNotify(int channel) {
            sendOut(eos());
        }
    }

    /**
     * Head of an R-Worker. FastFlow's helper also sends EOS from eosnotify; here a node ends by itself
     * once all its input channels ended, and sendOut(eos()) would end it at the first channel's EOS.
     */
    static final class MiPass extends MultiInputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    /** Tail of an R-Worker: task forward to the last stage, an ack back (round-robin among L-Workers). */
    static final class Worker extends MultiOutputNode<Long, Long> {
        private int next;
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            seen.add(in);
            sendOutTo(in, 0);
            sendFeedbackTo(ACK, next++ % feedbackChannels());
            return goOn();
        }
    }

    static final class Last extends MultiInputNode<Long, Void> {
        final List<Long> items = new ArrayList<>();
        final List<Integer> channels = new ArrayList<>();

        @Override
        protected Void svc(Long in) {
            items.add(in);
            channels.add(inputChannel());
            return goOn();
        }
    }

    @Test
    void shouldDeliverEveryTaskToTheLastStageOnceAndTerminate() {
        long tasks = 100;
        AtomicLong outstanding = new AtomicLong(tasks);
        List<Worker> workers = List.of(new Worker(), new Worker(), new Worker());
        AllToAll a2a = new AllToAll()
                .firstSet(
                        Combiner.of(new Gatherer(outstanding), new Emitter2()),
                        Combiner.of(new Gatherer(outstanding), new Emitter2()))
                .secondSet(
                        workers.stream().map(w -> Combiner.of(new MiPass(), w)).toList())
                .wrapAround();
        Last last = new Last();
        new Pipeline(new First(tasks), new Spread(), a2a, last).runAndWaitEnd();

        List<Long> all = LongStream.range(0, tasks).boxed().toList();
        assertThat(last.items).containsExactlyInAnyOrderElementsOf(all); // FastFlow: nt == 0, "Test OK"
        assertThat(last.channels).allSatisfy(c -> assertThat(c).isBetween(0, 2));
        assertThat(workers).allSatisfy(w -> assertThat(w.seen).isNotEmpty());
    }
}
