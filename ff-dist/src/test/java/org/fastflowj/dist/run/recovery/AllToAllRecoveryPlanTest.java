package org.fastflowj.dist.run.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.RecoverableAllToAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A recoverable all-to-all's plan: the groups of its remote R-Workers may be lost; the home keeps a ledger
 * per edge to a remote R-Worker and reads its outputs' tags; the R-Worker's group records its takes and tags
 * its outputs. A ledger settles an output named by its sequence once, drops it when named again, and refuses
 * one that skips an item.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AllToAllRecoveryPlanTest {
    static final class Collect extends MultiInputNode<Long, Void> {
        @Override
        protected Void svc(Long x) {
            return goOn();
        }
    }

    @Test
    void shouldLoseTheGroupsOfRemoteRWorkersAndTagTheirOutputs() {
        List<Node<Long, Long>> right = List.of(Node.of(x -> x), Node.of(x -> x), Node.of(x -> x));
        AllToAll a2a = new AllToAll()
                .firstSet(Node.<Long, Long>of(x -> x), Node.<Long, Long>of(x -> x))
                .secondSet(right)
                .onDemand()
                .recoverable();
        Pipeline main = new Pipeline(Node.source(() -> List.of(1L).iterator()), a2a, new Collect());
        main.createGroup("L");
        a2a.createGroup("W1").include(right.get(1));
        a2a.createGroup("W2").include(right.get(2));
        Graph whole = GraphCompiler.compile(main);
        RecoverableAllToAll compiled = whole.recoverableAllToAlls().get(0);

        RecoveryPlan home = RecoveryPlan.of(whole, "L");
        assertThat(home.losablePeers(whole, "L")).containsExactly("W1", "W2");
        for (int i = 0; i < 2; i++) {
            assertThat(home.redeliveryFor(compiled.senders().get(i).name()).watchedOutputs())
                    .as("L-Worker %d watches its edges to R-Workers 1 and 2, not to the local R-Worker 0", i)
                    .containsExactly(1, 2);
            assertThat(home.ledgerOfDispatch(compiled.dispatch().get(i).get(0))).isNull();
        }
        assertThat(home.answersOfReturn(compiled.returns().get(0))).isNull();
        for (int j = 1; j < 3; j++) {
            RecoveryLedger[] byChannel = home.answersOfReturn(compiled.returns().get(j));
            assertThat(byChannel).hasSize(2);
            for (int i = 0; i < 2; i++) {
                Edge dispatch = compiled.dispatch().get(i).get(j);
                assertThat(byChannel[i]).isSameAs(home.ledgerOfDispatch(dispatch));
            }
            assertThat(home.tagsOfReturn(compiled.returns().get(j))).isNull();
        }
        assertThat(home.takeRecorderFor(compiled.entries().get(1).name())).isNull();

        RecoveryPlan inW1 = RecoveryPlan.of(whole, "W1");
        assertThat(inW1.losable("L")).isFalse();
        assertThat(inW1.losablePeers(whole, "W1")).isEmpty();
        assertThat(inW1.takeRecorderFor(compiled.entries().get(1).name()))
                .isSameAs(inW1.tagsOfReturn(compiled.returns().get(1)))
                .isNotNull();
        assertThat(inW1.takeRecorderFor(compiled.entries().get(2).name())).isNull();
        assertThat(inW1.ledgerOfDispatch(compiled.dispatch().get(0).get(1))).isNull();
    }

    @Test
    void shouldLoseNoRWorkerGroupOfAnAllToAllThatIsNotRecoverable() {
        AllToAll a2a = new AllToAll()
                .firstSet(Node.<Long, Long>of(x -> x))
                .secondSet(Node.<Long, Long>of(x -> x), Node.<Long, Long>of(x -> x));
        Pipeline main = new Pipeline(Node.source(() -> List.of(1L).iterator()), a2a, new Collect());
        main.createGroup("L");

        assertThat(RecoveryPlan.of(GraphCompiler.compile(main), "L").losablePeers(GraphCompiler.compile(main), "L"))
                .isEmpty();
    }

    @Test
    void shouldSettleAnOutputNamedBySequenceOnceAndDropItWhenNamedAgain() {
        LostItems lost = new LostItems("ff-a2a1-L0", 2);
        RecoveryLedger ledger = new RecoveryLedger("the items of ff-a2a1-L0 to R-Worker 1", lost);
        lost.watch(1, ledger);
        for (long i = 0; i < 5; i++) {
            ledger.record(i);
        }

        assertThat(ledger.answer(0)).isTrue();
        assertThat(ledger.answer(1)).isTrue();
        assertThat(ledger.answer(0)).as("item 0 answered again").isFalse();
        assertThat(lost.settled(1)).isEqualTo(2);
        assertThat(ledger.toString()).contains("1 duplicate output(s) dropped");
        assertThatThrownBy(() -> ledger.answer(3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the items of ff-a2a1-L0 to R-Worker 1 sent an output for item 3 while item 2")
                .hasMessageContaining("exactly one output per item");

        ledger.answersOver();
        assertThat(ledger.handBackUnanswered()).isEqualTo(3);
        assertThat(List.of(lost.poll(), lost.poll(), lost.poll())).containsExactly(2L, 3L, 4L);
        assertThat(lost.settled(1)).isEqualTo(5);
    }

    @Test
    void shouldRefuseAnOutputForAnItemNeverSent() {
        RecoveryLedger ledger = new RecoveryLedger("the items of L0 to R1", new LostItems("ff-a2a1-L0", 1));
        ledger.record("a");
        assertThat(ledger.answer(0)).isTrue();

        assertThatThrownBy(() -> ledger.answer(1))
                .hasMessageContaining("the items of L0 to R1 sent an output for item 1 but only 1 item(s) were sent");
    }
}
