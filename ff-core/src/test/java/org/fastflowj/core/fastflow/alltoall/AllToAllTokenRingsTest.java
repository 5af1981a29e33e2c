package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_all-to-all12.cpp: in a wrapped all-to-all, L-Worker i and R-Worker i pass a counter back and forth until it reaches NITER; each R-Worker then sends its last value (NITER) to the last stage. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class AllToAllTokenRingsTest {

    private static final long NITER = 500;

    /** Sends one zero counter to each L-Worker. */
    static final class First extends MultiOutputNode<Void, Long> {
        @Override
        protected Long svc(Void none) {
            for (int i = 0; i < outputChannels(); i++) {
                sendOutTo(0L, i);
            }
            return eos();
        }
    }

    static final class MiPass extends MultiInputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    /** L-Worker tail: ends at NITER, else increments and sends to the R-Worker of its own index. */
    static final class Worker1 extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            if (in == NITER) {
                return eos();
            }
            if (id() == 1) {
                LockSupport.parkNanos(50_000); // slow worker, as FastFlow's usleep
            }
            sendOutTo(in + 1, id());
            return goOn();
        }
    }

    /** R-Worker head: sends EOS on once every input channel ended. */
    static final class MiHelper2 extends MultiInputNode<Long, Long> {
        private int ended;

        @Override
        protected Long svc(Long in) {
            return in;
        }

        @Override
        protected void eosNotify(int channel) {
            if (++ended == inputChannels()) {
                sendOut(eos());
            }
        }
    }

    /** R-Worker tail: sends each counter back to the L-Worker of its own index; at the end its last one forward. */
    static final class Worker2 extends MultiOutputNode<Long, Long> {
        private Long last;

        @Override
        protected Long svc(Long in) {
            last = in;
            if (id() == 0) {
                LockSupport.parkNanos(50_000);
            }
            sendFeedbackTo(in, id());
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            sendOutTo(last, 0);
        }
    }

    static final class Last extends MultiInputNode<Long, Void> {
        final List<Long> values = new ArrayList<>();
        final List<Integer> channels = new ArrayList<>();

        @Override
        protected Void svc(Long in) {
            values.add(in);
            channels.add(inputChannel());
            return goOn();
        }
    }

    @Test
    void shouldBringEveryCounterToNiterAndReportItFromEachRWorker() {
        AllToAll a2a = new AllToAll()
                .firstSet(
                        Combiner.of(new MiPass(), new Worker1()),
                        Combiner.of(new MiPass(), new Worker1()),
                        Combiner.of(new MiPass(), new Worker1()))
                .secondSet(
                        Combiner.of(new MiHelper2(), new Worker2()),
                        Combiner.of(new MiHelper2(), new Worker2()),
                        Combiner.of(new MiHelper2(), new Worker2()))
                .wrapAround();
        Last last = new Last();
        new Pipeline(new First(), a2a, last).runAndWaitEnd();

        assertThat(last.values).containsExactly(NITER, NITER, NITER);
        assertThat(last.channels).containsExactlyInAnyOrder(0, 1, 2);
    }
}
