package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: a node that chooses its output channels (docs/building-blocks.md, "Multi-output node"). */
@Timeout(60)
class MultiOutputNodeGuideTest {

    /** Records what it received; worker i of a farm reads from the emitter's output channel i. */
    static final class Recorder extends Node<Integer, Void> {
        final List<Integer> seen = new ArrayList<>();

        @Override
        protected Void svc(Integer item) {
            seen.add(item);
            return goOn();
        }
    }

    // tag::send-out-to[]
    /** An emitter that routes each number by its parity: evens to worker 0, odds to worker 1. */
    static final class ByParity extends MultiOutputNode<Void, Integer> {
        @Override
        protected Integer svc(Void none) {
            for (int i = 0; i < 10; i++) {
                sendOutTo(i, i % 2); // forward channel i % 2
            }
            return eos();
        }
    }
    // end::send-out-to[]

    @Test
    void shouldSendEachItemOnTheChosenChannel() {
        Recorder evens = new Recorder();
        Recorder odds = new Recorder();
        Farm.of(evens, odds).emitter(new ByParity()).runAndWaitEnd();

        assertThat(evens.seen).containsExactly(0, 2, 4, 6, 8);
        assertThat(odds.seen).containsExactly(1, 3, 5, 7, 9);
    }

    // tag::broadcast[]
    /** Sends every item to every worker. */
    static final class ToAll extends MultiOutputNode<Void, Integer> {
        @Override
        protected Integer svc(Void none) {
            for (int i = 0; i < 3; i++) {
                broadcast(i); // the same item on each of outputChannels() channels
            }
            return eos();
        }
    }
    // end::broadcast[]

    @Test
    void shouldBroadcastToEveryChannel() {
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        Recorder c = new Recorder();
        Farm.of(a, b, c).emitter(new ToAll()).runAndWaitEnd();

        assertThat(List.of(a.seen, b.seen, c.seen))
                .allSatisfy(seen -> assertThat(seen).containsExactly(0, 1, 2));
    }

    // tag::send-feedback-to[]
    /** L-Worker (loop head): sends its tasks, then waits for all of them to come back. */
    static final class Asker extends Node<Integer, Integer> {
        final List<Integer> answers = new ArrayList<>();

        @Override
        protected Integer svc(Integer answer) {
            if (answer == null) { // the loop head's first call, with no input
                for (int k = 0; k < 4; k++) {
                    sendOut(100 * id() + k); // the task carries its asker's index
                }
                return goOn();
            }
            answers.add(answer);
            return answers.size() < 4 ? goOn() : eos(); // all answers back: end the loop
        }
    }

    /** R-Worker: answers each task on the feedback channel of the L-Worker that asked. */
    static final class Answerer extends MultiOutputNode<Integer, Integer> {
        @Override
        protected Integer svc(Integer task) {
            sendFeedbackTo(-task, task / 100); // feedback channel i goes to L-Worker i
            return goOn();
        }
    }
    // end::send-feedback-to[]

    @Test
    void shouldSendFeedbackToTheChosenLWorker() {
        // tag::send-feedback-to-run[]
        Asker first = new Asker();
        Asker second = new Asker();
        new AllToAll()
                .firstSet(first, second)
                .secondSet(new Answerer(), new Answerer(), new Answerer())
                .wrapAround() // R -> L feedback
                .runAndWaitEnd();

        assertThat(first.answers).containsExactlyInAnyOrder(0, -1, -2, -3);
        assertThat(second.answers).containsExactlyInAnyOrder(-100, -101, -102, -103);
        // end::send-feedback-to-run[]
    }
}
