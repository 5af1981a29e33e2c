package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_all-to-all18.cpp: a single R-Worker, a pipeline of a combiner headed by a multi-input node, hears of each of the four L-Workers' items and of each one's EOS separately. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AllToAllEndOfStreamPerLeftWorkerTest {

    static final class Left extends MultiOutputNode<Void, Long> {
        private final long tasks;

        Left(long tasks) {
            this.tasks = tasks;
        }

        @Override
        protected Long svc(Void none) {
            for (long i = 1; i <= tasks; i++) {
                sendOut(i);
            }
            return eos();
        }
    }

    static final class CheckEos extends MultiInputNode<Long, Long> {
        final List<Integer> inputsFrom = new ArrayList<>();
        final List<Integer> eosFrom = new ArrayList<>();

        @Override
        protected Long svc(Long in) {
            inputsFrom.add(inputChannel());
            return in;
        }

        @Override
        protected void eosNotify(int channel) {
            eosFrom.add(channel);
        }
    }

    static final class Right extends MultiInputNode<Long, Long> {
        int seen;

        @Override
        protected Long svc(Long in) {
            seen++;
            return goOn();
        }
    }

    @Test
    void shouldTellEachLeftsItemsAndEosApart() {
        CheckEos check = new CheckEos();
        Right right = new Right();
        AllToAll a2a = new AllToAll()
                .firstSet(new Left(2), new Left(2), new Left(2), new Left(2)) // ntasks / nlefts = 10 / 4
                .secondSet(new Pipeline(Combiner.of(check, right)));
        a2a.runAndWaitEnd();

        assertThat(check.inputsFrom).containsExactlyInAnyOrder(0, 0, 1, 1, 2, 2, 3, 3);
        assertThat(check.eosFrom).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(right.seen).isEqualTo(8);
    }
}
