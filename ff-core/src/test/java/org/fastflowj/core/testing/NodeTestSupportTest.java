package org.fastflowj.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The harness fails a node that does not do what is expected, in every way of feeding it. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NodeTestSupportTest {

    /** Adds one to every item. */
    static final class PlusOne extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer in) {
            return in + 1;
        }
    }

    /** Swaps each pair of items: the second goes out first. */
    static final class PairSwapper extends Node<Integer, Integer> {
        private Integer held;

        @Override
        protected Integer svc(Integer in) {
            if (held == null) {
                held = in;
                return goOn();
            }
            sendOut(in);
            Integer first = held;
            held = null;
            return first;
        }
    }

    /** Never emits anything. */
    static final class Silent extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer in) {
            return goOn();
        }
    }

    @Test
    void shouldPassANodeThatDoesWhatIsExpected() {
        NodeTestSupport.verify(PlusOne::new)
                .input(1, 2, 3)
                .expectOutput(2, 3, 4)
                .run();
        NodeTestSupport.verify(PairSwapper::new)
                .input(1, 2, 3, 4)
                .expectOutput(2, 1, 4, 3)
                .run();
        NodeTestSupport.verify(Silent::new).input(1, 2).expectNoOutput().run();
    }

    @Test
    void shouldFailAWrongItemNamingTheFeeding() {
        assertThatThrownBy(() -> NodeTestSupport.verify(PlusOne::new)
                        .input(1, 2)
                        .expectOutput(2, 4)
                        .run())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("ONE_BY_ONE, output channel 0");
    }

    @Test
    void shouldFailAWrongOrderUnlessAnyOrderIsExpected() {
        for (NodeTestSupport.Feeding feeding : NodeTestSupport.Feeding.values()) {
            assertThatThrownBy(() -> NodeTestSupport.verify(PairSwapper::new)
                            .input(1, 2)
                            .expectOutput(1, 2)
                            .run(feeding))
                    .as(feeding.toString())
                    .isInstanceOf(AssertionError.class);
        }
        NodeTestSupport.verify(PairSwapper::new)
                .input(1, 2)
                .expectOutputInAnyOrder(1, 2)
                .run();
    }

    @Test
    void shouldFailAnOutputWhereNoneIsExpected() {
        assertThatThrownBy(() -> NodeTestSupport.verify(PlusOne::new)
                        .input(1)
                        .expectNoOutput()
                        .run())
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> NodeTestSupport.verify(Silent::new)
                        .input(1)
                        .expectOutput(1)
                        .run())
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void shouldCheckAFreshNodeAfterEveryFeeding() {
        List<PlusOne> checked = new ArrayList<>();

        NodeTestSupport.verify(PlusOne::new)
                .input(1)
                .expectOutput(2)
                .assertNode(checked::add)
                .run();

        assertThat(checked).hasSize(NodeTestSupport.Feeding.values().length).doesNotHaveDuplicates();
    }
}
