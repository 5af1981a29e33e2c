package org.fastflowj.core.fastflow.alltoall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Behaviour of FastFlow's tests/test_all-to-all8.cpp and tests/test_all-to-all9.cpp: in feedback(A2A) and feedback(pipe(A2A, farm)) every L-Worker gets back exactly the tasks it sent, then ends. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AllToAllFeedbackTest {

    /** A task: the L-Worker that sent it and its sequence number. */
    record Task(long sender, long seq) {}

    private static final Task START = new Task(-1, -1);

    /** Multi-input helper in front of a loop head: turns the start call into a START task. */
    static final class StartHelper extends MultiInputNode<Task, Task> {
        @Override
        protected Task svc(Task in) {
            return in == null ? START : in;
        }
    }

    static final class MiPass extends MultiInputNode<Task, Task> {
        @Override
        protected Task svc(Task in) {
            return in;
        }
    }

    /**
     * L-Worker: on start sends 10 * fanOut tasks, task i to channel i % fanOut (or all to its own index),
     * then checks that every task that comes back is its own, and ends when all are back.
     */
    static final class Asker extends MultiOutputNode<Task, Task> {
        private final int fanOut;
        private final boolean toOwnIndex;
        private long remaining;
        final List<Long> backSeqs = new ArrayList<>();
        int foreign;

        Asker(int fanOut, boolean toOwnIndex) {
            this.fanOut = fanOut;
            this.toOwnIndex = toOwnIndex;
        }

        @Override
        protected void svcInit() {
            remaining = 10L * fanOut;
        }

        @Override
        protected Task svc(Task in) {
            if (in == null || in.equals(START)) {
                long n = remaining;
                for (long i = 0; i < n; i++) {
                    sendOutTo(new Task(id(), i), toOwnIndex ? id() : (int) (i % fanOut));
                }
                return goOn();
            }
            if (in.sender() != id()) {
                foreign++;
            } else {
                backSeqs.add(in.seq());
            }
            return --remaining == 0 ? eos() : goOn();
        }
    }

    /** R-Worker answering on the feedback channel of the sender. */
    static final class AnswerToSender extends MultiOutputNode<Task, Task> {
        final List<Task> seen = new ArrayList<>();

        @Override
        protected Task svc(Task in) {
            seen.add(in);
            sendFeedbackTo(in, (int) in.sender());
            return goOn();
        }
    }

    static final class Pass extends Node<Task, Task> {
        @Override
        protected Task svc(Task in) {
            return in;
        }
    }

    private static <T> List<T> times(int n, Supplier<T> factory) {
        List<T> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(factory.get());
        }
        return list;
    }

    private static void assertEachGotItsOwnBack(List<Asker> askers, int count) {
        List<Long> all = LongStream.range(0, count).boxed().toList();
        assertThat(askers).allSatisfy(a -> {
            assertThat(a.foreign).as("tasks of another L-Worker").isZero();
            assertThat(a.backSeqs).containsExactlyInAnyOrderElementsOf(all);
        });
    }

    @Test
    void shouldAnswerEachLWorkerOnItsFeedbackChannelWithThreeLAndTwoR() {
        List<Asker> askers = times(3, () -> new Asker(2, false));
        List<BuildingBlock> lWorkers = askers.stream()
                .<BuildingBlock>map(a -> Combiner.of(new StartHelper(), a))
                .toList();
        List<AnswerToSender> answerers = times(2, AnswerToSender::new);
        List<BuildingBlock> rWorkers = answerers.stream()
                .<BuildingBlock>map(r -> Combiner.of(new MiPass(), r))
                .toList();
        new AllToAll().firstSet(lWorkers).secondSet(rWorkers).wrapAround().runAndWaitEnd();

        assertEachGotItsOwnBack(askers, 20);
        for (int r = 0; r < 2; r++) {
            int rIndex = r;
            assertThat(answerers.get(r).seen).hasSize(30).allSatisfy(t -> assertThat(t.seq() % 2)
                    .isEqualTo(rIndex));
        }
    }

    /**
     * Equal widths, plain R-Workers: FastFlow wires R-Worker i's feedback to L-Worker i only, so each
     * L-Worker (which checks the sender) gets its own tasks back.
     */
    @Test
    void shouldSendPlainRWorkersOutputBackToTheLWorkerOfTheSameIndexWhenWidthsMatch() {
        List<Asker> askers = times(3, () -> new Asker(3, true));
        new AllToAll()
                .firstSet(askers)
                .secondSet(new Pass(), new Pass(), new Pass())
                .wrapAround()
                .runAndWaitEnd();

        assertEachGotItsOwnBack(askers, 30);
    }

    /** Emitter of the farm closing the loop: task of L-Worker s goes to worker s % workers. */
    static final class BySender extends MultiOutputNode<Task, Task> {
        @Override
        protected Task svc(Task in) {
            sendOutTo(in, (int) (in.sender() % outputChannels()));
            return goOn();
        }
    }

    @Test
    void shouldReturnTasksThroughAFarmOfMultiOutputWorkersToTheirLWorker() {
        List<Asker> askers = times(3, () -> new Asker(2, false));
        List<BuildingBlock> lWorkers = askers.stream()
                .<BuildingBlock>map(a -> Combiner.of(new StartHelper(), a))
                .toList();
        AllToAll a2a = new AllToAll().firstSet(lWorkers).secondSet(new Pass(), new Pass());
        Farm farm = Farm.of(2, AnswerToSender::new).emitter(new BySender());
        new Pipeline(a2a, farm).wrapAround().runAndWaitEnd();

        assertEachGotItsOwnBack(askers, 20);
    }

    /**
     * Plain workers, as many as L-Workers: FastFlow connects worker i back to L-Worker i, and the emitter
     * sends L-Worker s's tasks to worker s, so each L-Worker gets its own tasks back.
     */
    @Test
    void shouldReturnTasksThroughAFarmOfPlainWorkersToTheLWorkerOfTheSameIndex() {
        List<Asker> askers = times(3, () -> new Asker(2, false));
        AllToAll a2a = new AllToAll().firstSet(askers).secondSet(new Pass(), new Pass());
        Farm farm = Farm.of(3, Pass::new).emitter(new BySender());
        new Pipeline(a2a, farm).wrapAround().runAndWaitEnd();

        assertEachGotItsOwnBack(askers, 20);
    }
}
