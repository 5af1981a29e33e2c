package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: Node.of for stages that are one function (docs/building-blocks.md, "Node.of"). */
@Timeout(60)
class LambdaNodeGuideTest {

    static final class Lines extends Node<Void, String> {
        private final List<String> lines;
        private int next;

        Lines(List<String> lines) {
            this.lines = lines;
        }

        @Override
        protected String svc(Void none) {
            return next < lines.size() ? lines.get(next++) : eos();
        }
    }

    @Test
    void shouldApplyAFunctionToEveryItem() {
        // tag::node-of[]
        List<Integer> lengths = new CopyOnWriteArrayList<>();

        Node<String, String> trim = Node.of(String::trim);
        Node<String, Integer> length = Node.of(String::length);
        Node<Integer, Integer> record = Node.of(n -> {
            lengths.add(n);
            return n; // the last stage's outputs are dropped
        });
        new Pipeline(new Lines(List.of(" a ", "bb", "  ccc")), trim, length, record).runAndWaitEnd();

        assertThat(lengths).containsExactly(1, 2, 3);
        // end::node-of[]
    }
}
