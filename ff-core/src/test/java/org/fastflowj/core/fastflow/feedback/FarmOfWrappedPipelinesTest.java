package org.fastflowj.core.fastflow.feedback;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.testing.FfTestNodes.Range;
import org.fastflowj.core.testing.FfTestNodes.Record;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_multi_input9.cpp: farm workers that are wrapped-around pipelines whose last
 * stage also feeds the next stage; even items are bumped to odd ones inside the loop before leaving it.
 *
 * <p>FastFlow's program tests for the end of its loop before bumping an even item, so when an even item is the last
 * one to come back after end-of-stream its successor is dropped (a race in the program, not in the run-time). The
 * head here bumps first and counts an item out of the loop only when it leaves as an odd one.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FarmOfWrappedPipelinesTest {

    /** Loop head: counts tasks in its loop; an even task that comes back goes round again as the next odd number. */
    static final class LoopHead extends MultiInputNode<Long, Long> {
        long inLoop;
        boolean inputEnded;

        @Override
        protected Long svc(Long in) {
            if (!fromFeedback()) {
                inLoop++;
                return in;
            }
            if ((in & 1) == 0) {
                return in + 1;
            }
            inLoop--;
            return inLoop == 0 && inputEnded ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            inputEnded = true;
            if (inLoop == 0) {
                sendOut(eos());
            }
        }
    }

    /** Last stage of the loop: odd items go forward too; every item goes back. */
    static final class OddOut extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            if ((in & 1) == 1) {
                sendOutTo(in, 0);
            }
            sendFeedbackTo(in, 0);
            return goOn();
        }
    }

    @RepeatedTest(200)
    void shouldLetOnlyOddItemsOutOfEachWorkersLoop() {
        Record gatherer = new Record();
        Farm farm = Farm.of(3, () -> new Pipeline(new LoopHead(), new OddOut()).wrapAround());
        new Pipeline(new Range(1, 10), farm, gatherer).runAndWaitEnd();

        // odd i leaves as i; even i comes back and leaves as i + 1
        assertThat(gatherer.items).containsExactlyInAnyOrder(1L, 3L, 3L, 5L, 5L, 7L, 7L, 9L, 9L, 11L);
        assertThat(gatherer.ended).isTrue();
    }
}
