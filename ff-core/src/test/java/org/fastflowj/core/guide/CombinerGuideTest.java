package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.Vertex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: two nodes fused into one thread (docs/building-blocks.md, "Combiner"). */
@Timeout(60)
class CombinerGuideTest {

    static final class Numbers extends Node<Void, Integer> {
        private int next = 1;

        @Override
        protected Integer svc(Void none) {
            return next <= 6 ? Integer.valueOf(next++) : eos();
        }
    }

    static final class Collect<T> extends Node<T, Void> {
        final List<T> items = new ArrayList<>();

        @Override
        protected Void svc(T item) {
            items.add(item);
            return goOn();
        }
    }

    /** Drops odd numbers; at the end it sends a last item, which still reaches the second node. */
    static final class Evens extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) {
            return x % 2 == 0 ? x : goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            sendOut(100);
        }
    }

    @Test
    void shouldRunBothNodesOnOneThread() {
        // tag::combiner[]
        Node<Integer, Integer> evens = new Evens();
        Node<Integer, String> label = Node.of(x -> "#" + x);
        Combiner<Integer, String> fused = Combiner.of(evens, label); // one thread runs both

        Collect<String> sink = new Collect<>();
        Pipeline pipe = new Pipeline(new Numbers(), fused, sink);
        pipe.runAndWaitEnd();

        assertThat(sink.items).containsExactly("#2", "#4", "#6", "#100");
        assertThat(GraphCompiler.compile(pipe).vertices())
                .extracting(Vertex::name)
                .containsExactly("ff-pipe1-stage0", "ff-pipe1-stage1", "ff-pipe1-stage2");
        // end::combiner[]
    }

    @Test
    void shouldNestCombiners() {
        Collect<Integer> sink = new Collect<>();
        Node<Integer, Integer> three =
                Combiner.of(Combiner.of(new Evens(), Node.of((Integer x) -> x + 1)), Node.of((Integer x) -> x * 10));
        new Pipeline(new Numbers(), three, sink).runAndWaitEnd();

        assertThat(sink.items).containsExactly(30, 50, 70, 1010);
    }
}
