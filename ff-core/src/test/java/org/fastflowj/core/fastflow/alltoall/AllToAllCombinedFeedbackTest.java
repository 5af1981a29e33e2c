package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.testing.FfTestNodes.Range;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_multi_output3.cpp: a wrapped all-to-all whose members are combiners of a
 * multi-input helper and a multi-output node; the R-Worker sends each task back to the L-Worker it came from,
 * and each L-Worker ends once its input ended and all its tasks came back.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AllToAllCombinedFeedbackTest {

    /** A value and where it came from: -1 for the forward input, else a channel index. */
    record Tagged(long value, int from) {}

    /** First half of an L-Worker: tags each item with input (-1) or feedback (0). */
    static final class TagInput extends MultiInputNode<Long, Tagged> {
        @Override
        protected Tagged svc(Long in) {
            return new Tagged(in, fromFeedback() ? 0 : -1);
        }
    }

    /** Second half of an L-Worker: sends input tasks to the R-Worker, counts them back, ends when done. */
    static final class Worker extends MultiOutputNode<Tagged, Long> {
        final List<Long> sent = new ArrayList<>();
        final List<Long> back = new ArrayList<>();
        long pending;
        boolean inputEnded;

        @Override
        protected Long svc(Tagged in) throws InterruptedException {
            if (in.from() == -1) {
                pending++;
                if (id() == 0 || id() == 1) {
                    Thread.sleep(1); // slow workers, as in the original
                }
                sent.add(in.value());
                sendOut(in.value());
                return goOn();
            }
            back.add(in.value());
            pending--;
            assertThat(pending).isNotNegative();
            return pending == 0 && inputEnded ? eos() : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            inputEnded = true;
            if (pending == 0) {
                sendOut(eos());
            }
        }
    }

    /** First half of the R-Worker: tags each task with the L-Worker it came from. */
    static final class TagChannel extends MultiInputNode<Long, Tagged> {
        @Override
        protected Tagged svc(Long in) {
            return new Tagged(in, inputChannel());
        }
    }

    /** Second half of the R-Worker: sends the task back to that L-Worker. */
    static final class BackToSender extends MultiOutputNode<Tagged, Long> {
        @Override
        protected Long svc(Tagged in) {
            sendFeedbackTo(in.value(), in.from());
            return goOn();
        }
    }

    @Test
    void shouldReturnEveryTaskToTheLWorkerThatSentIt() {
        long tasks = 200;
        List<Worker> workers = new ArrayList<>();
        List<BuildingBlock> left = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Worker w = new Worker();
            workers.add(w);
            left.add(Combiner.of(new TagInput(), w));
        }
        AllToAll a2a = new AllToAll()
                .firstSet(left)
                .secondSet(Combiner.of(new TagChannel(), new BackToSender()))
                .wrapAround();
        new Pipeline(new Range(1, tasks), a2a).runAndWaitEnd();

        List<Long> allSent = new ArrayList<>();
        for (int i = 0; i < workers.size(); i++) {
            Worker w = workers.get(i);
            assertThat(w.id()).as("id of the node combined as L-Worker %d", i).isEqualTo(i);
            assertThat(w.back).containsExactlyInAnyOrderElementsOf(w.sent);
            assertThat(w.pending).isZero();
            allSent.addAll(w.sent);
        }
        assertThat(allSent)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, tasks).boxed().toList());
    }
}
