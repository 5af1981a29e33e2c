package org.fastflowj.dist.run.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ledger pairs the k-th output of a worker with its k-th item, hands back exactly the unanswered ones,
 * and refuses a worker that answers more than it was sent; the plan lets a group be lost only when it
 * holds nothing but whole workers of recoverable farms.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RecoveryLedgerTest {
    @Test
    void shouldHandBackTheItemsNotAnsweredWhenTheAnswersAreOver() {
        LostItems lost = new LostItems("ff-farm-emitter", 2);
        RecoveryLedger ledger = new RecoveryLedger("worker 1 in group W", lost);
        lost.watch(1, ledger);
        for (long i = 0; i < 1000; i++) { // more than the ring holds at first: it grows
            ledger.record(i);
            if (i % 3 == 0) {
                ledger.answered(); // answers lag behind the items sent
            }
        }
        assertThat(lost.settled(1)).isEqualTo(334);
        assertThat(lost.settled(0))
                .as("an output not watched is always settled")
                .isEqualTo(Long.MAX_VALUE);

        ledger.answersOver();
        ledger.handBack(5_000L); // put on the channel after the loss, never recorded
        assertThat(ledger.handBackUnanswered()).isEqualTo(666);

        List<Object> again = new ArrayList<>();
        assertThat(lost.pending()).isTrue();
        for (Object item = lost.poll(); item != null; item = lost.poll()) {
            again.add(item);
        }
        List<Object> expected = new ArrayList<>();
        expected.add(5_000L);
        for (long i = 334; i < 1000; i++) {
            expected.add(i);
        }
        assertThat(again).containsExactlyElementsOf(expected);
        assertThat(lost.pending()).isFalse();
        assertThat(lost.settled(1)).isEqualTo(1001);
        assertThat(lost.watchedOutputs()).containsExactly(1);
    }

    @Test
    void shouldRefuseAWorkerThatAnswersMoreThanItWasSent() {
        RecoveryLedger ledger =
                new RecoveryLedger("worker 2 (ff-farm-worker2) in group W2", new LostItems("ff-farm-emitter", 3));
        ledger.record("a");
        ledger.answered();

        assertThatThrownBy(ledger::answered)
                .hasMessageContaining("worker 2 (ff-farm-worker2) in group W2 sent more outputs than it was sent items")
                .hasMessageContaining("exactly one output per item");
    }

    @Test
    void shouldBalanceTheBooksOnceEveryItemIsAnsweredOrHandedBackAndSentAgain() {
        LostItems lost = new LostItems("ff-a2a1-L0", 2);
        RecoveryLedger ledger = new RecoveryLedger("the items of ff-a2a1-L0 to R-Worker 1 in group W1", lost);
        lost.watch(1, ledger);
        for (long i = 0; i < 15; i++) {
            ledger.record(i);
        }
        for (long i = 0; i < 14; i++) {
            assertThat(ledger.answer(i)).isTrue();
        }
        assertThat(ledger.unbalanced())
                .as("one item is still out: neither answered nor handed back")
                .contains("15 sent, 14 answered, 0 handed back")
                .contains("1 item(s) neither answered nor handed back");

        ledger.answersOver();
        ledger.handBack(99L);
        assertThat(ledger.handBackUnanswered()).isEqualTo(1);
        assertThat(ledger.unbalanced()).isNull();
        assertThat(lost.unbalanced())
                .as("two came back, none sent again yet")
                .isEqualTo("2 item(s) of lost workers came back to ff-a2a1-L0 but 0 were sent again");

        assertThat(lost.poll()).isEqualTo(99L);
        assertThat(lost.poll()).isEqualTo(14L);
        assertThat(lost.unbalanced()).isNull();
    }

    @Test
    void shouldFailAHandBackToAnEmitterThatEndedInsteadOfLosingTheItem() {
        LostItems lost = new LostItems("ff-a2a1-L0", 2);
        RecoveryLedger ledger = new RecoveryLedger("the items of ff-a2a1-L0 to R-Worker 1 in group W1", lost);
        lost.watch(1, ledger);
        ledger.record("a");
        ledger.record("b");
        ledger.answered();
        lost.emitterEnds(); // its end saw every item settled: here it was wrong

        ledger.answersOver();
        assertThatThrownBy(ledger::handBackUnanswered)
                .hasMessageContaining("the items of ff-a2a1-L0 to R-Worker 1 in group W1: 2 sent, 1 answered")
                .hasMessageContaining("came back to ff-a2a1-L0 after it ended");
        assertThatThrownBy(() -> ledger.handBack("c")).hasMessageContaining("after it ended");
    }

    @Test
    void shouldRefuseAnAnswerAfterTheAnswersAreOver() {
        RecoveryLedger ledger = new RecoveryLedger("R-Worker 1 in group W1", new LostItems("ff-a2a1-L0", 2));
        ledger.record("a");
        ledger.record("b");
        assertThat(ledger.answer(0)).isTrue();
        ledger.answersOver();

        assertThatThrownBy(() -> ledger.answer(1)).hasMessageContaining("after its answers were over");
    }

    static final class Collect extends MultiInputNode<Long, Void> {
        @Override
        protected Void svc(Long x) {
            return goOn();
        }
    }

    @Test
    void shouldLoseOnlyAGroupOfWholeWorkersOfARecoverableFarm() {
        List<Node<Long, Long>> workers = List.of(Node.of(x -> x), Node.of(x -> x), Node.of(x -> x));
        Farm farm = Farm.of(workers)
                .emitter(Node.<Long, Long>of(x -> x))
                .collector(new Collect())
                .recoverable();
        Node<Void, Long> source = Node.source(() -> List.of(1L).iterator());
        Pipeline pipe = new Pipeline(source, farm);
        source.createGroup("S");
        farm.createGroup("M");
        farm.createGroup("W").include(workers.get(1)).include(workers.get(2));
        Graph whole = GraphCompiler.compile(pipe);

        RecoveryPlan inM = RecoveryPlan.of(whole, "M");
        assertThat(inM.losable("W")).isTrue();
        assertThat(inM.losable("S")).as("a source is no worker").isFalse();
        assertThat(inM.losable("M")).isFalse();
        assertThat(inM.losablePeers(whole, "M")).containsExactly("W");
        assertThat(inM.redeliveryFor(whole.recoverableFarms().get(0).emitter().name())
                        .watchedOutputs())
                .containsExactly(1, 2);
        assertThat(RecoveryPlan.of(whole, "W").losable("M")).isFalse();
        assertThat(RecoveryPlan.of(whole, "W").losablePeers(whole, "W")).isEmpty();
    }

    @Test
    void shouldLoseNoGroupOfAFarmThatIsNotRecoverable() {
        List<Node<Long, Long>> workers = List.of(Node.of(x -> x), Node.of(x -> x));
        Farm farm = Farm.of(workers).emitter(Node.<Long, Long>of(x -> x)).wrapAround();
        farm.createGroup("M");
        farm.createGroup("W").include(workers.get(1));

        RecoveryPlan plan = RecoveryPlan.of(GraphCompiler.compile(farm), "M");

        assertThat(plan.losable("W")).isFalse();
    }
}
