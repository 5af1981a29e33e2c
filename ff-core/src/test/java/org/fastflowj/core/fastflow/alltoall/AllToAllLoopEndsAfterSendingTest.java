package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_all-to-all10.cpp: in a wrapped all-to-all of combiners, L-Workers that send their tasks and then EOS at once terminate the loop, every task reaching an R-Worker. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AllToAllLoopEndsAfterSendingTest {

    /** L-Worker head: on the start call sends 10 tasks and EOS; counts the results that come back. */
    static final class Filter1 extends MultiInputNode<Long, Long> {
        int back;

        @Override
        protected Long svc(Long in) {
            if (in == null) {
                for (long i = 1; i <= 10; i++) {
                    sendOut(i);
                }
                sendOut(eos());
                return goOn();
            }
            back++;
            return goOn();
        }
    }

    static final class MoPass extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            return in;
        }
    }

    static final class Filter3 extends MultiInputNode<Long, Long> {
        final List<Long> seen = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            seen.add(in);
            return in; // "sending back"
        }
    }

    @Test
    void shouldTerminateWithEveryTaskReachingAnRWorker() {
        List<Filter1> heads = List.of(new Filter1(), new Filter1(), new Filter1());
        Filter3 r0 = new Filter3();
        Filter3 r1 = new Filter3();
        new AllToAll()
                .firstSet(heads.stream().map(h -> Combiner.of(h, new MoPass())).toList())
                .secondSet(Combiner.of(r0, new MoPass()), Combiner.of(r1, new MoPass()))
                .wrapAround()
                .runAndWaitEnd();

        List<Long> all = new ArrayList<>(r0.seen);
        all.addAll(r1.seen);
        assertThat(all).hasSize(30);
        assertThat(all.stream().mapToLong(Long::longValue).sum()).isEqualTo(3 * 55);
        // As in FastFlow, sendOut(eos()) from a loop head sends EOS forward and keeps taking fed-back
        // items until the R-Workers ended: every result comes back (30 in all).
        assertThat(heads.stream().mapToInt(h -> h.back).sum()).isEqualTo(30);
    }
}
