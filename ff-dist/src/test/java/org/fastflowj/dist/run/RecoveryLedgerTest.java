package org.fastflowj.dist.run;

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
        LostItems lost = new LostItems(2);
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
        RecoveryLedger ledger = new RecoveryLedger("worker 2 (ff-farm-worker2) in group W2", new LostItems(3));
        ledger.record("a");
        ledger.answered();

        assertThatThrownBy(ledger::answered)
                .hasMessageContaining("worker 2 (ff-farm-worker2) in group W2 sent more outputs than it was sent items")
                .hasMessageContaining("exactly one output per item");
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
