package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: the sequential node and its life cycle (docs/building-blocks.md, "Sequential node"). */
@Timeout(60)
class NodeLifeCycleGuideTest {

    // tag::source[]
    /** A source: no input, so svc(null) is called again and again until it returns eos(). */
    static final class Numbers extends Node<Void, Integer> {
        private final int count;
        private int next = 1;

        Numbers(int count) {
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            return next <= count ? Integer.valueOf(next++) : eos();
        }
    }
    // end::source[]

    // tag::lifecycle[]
    static final class Doubler extends Node<Integer, Integer> {
        final List<String> events = new ArrayList<>();

        @Override
        protected void svcInit() {
            events.add("svcInit"); // once, on the node's thread, before the first svc
        }

        @Override
        protected Integer svc(Integer x) {
            if (x % 3 == 0) {
                return goOn(); // no output for this item, keep going
            }
            if (x == 5) {
                sendOut(50); // several outputs for one input
                sendOut(500);
                return goOn();
            }
            return x * 2; // one output
        }

        @Override
        protected void eosNotify(int channel) {
            events.add("eosNotify(" + channel + ")"); // a plain node: once, channel == -1
            sendOut(-1); // still delivered, before the EOS
        }

        @Override
        protected void svcEnd() {
            events.add("svcEnd"); // once, after the EOS went downstream
        }
    }

    /** A sink: it returns goOn() for every item; its fields are safe to read after waitEnd(). */
    static final class Collect<T> extends Node<T, Void> {
        final List<T> items = new ArrayList<>();

        @Override
        protected Void svc(T item) {
            items.add(item);
            return goOn();
        }
    }
    // end::lifecycle[]

    @Test
    void shouldRunEveryLifeCycleMethodInOrder() {
        // tag::lifecycle-run[]
        Doubler doubler = new Doubler();
        Collect<Integer> sink = new Collect<>();
        new Pipeline(new Numbers(7), doubler, sink).runAndWaitEnd();

        assertThat(sink.items).containsExactly(2, 4, 8, 50, 500, 14, -1);
        assertThat(doubler.events).containsExactly("svcInit", "eosNotify(-1)", "svcEnd");
        // end::lifecycle-run[]
    }

    // tag::end-early[]
    /** Ends its own stream at the first negative item: returning eos() ends the node at once. */
    static final class UntilNegative extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) {
            return x < 0 ? eos() : x;
        }
    }
    // end::end-early[]

    @Test
    void shouldEndTheStreamWhenSvcReturnsEos() {
        Collect<Integer> sink = new Collect<>();
        Node<Integer, Integer> sign = Node.of(x -> x == 4 ? -x : x);
        new Pipeline(new Numbers(1000), sign, new UntilNegative(), sink).runAndWaitEnd();

        assertThat(sink.items).containsExactly(1, 2, 3);
    }

    // tag::boxing-pitfall[]
    /** WRONG: `i++` is an int, so the conditional is an int and Java unboxes eos()'s null. */
    static final class BrokenCounter extends Node<Void, Integer> {
        private int i;

        @Override
        protected Integer svc(Void none) {
            return i < 3 ? i++ : eos(); // NullPointerException at the fourth call
        }
    }

    /** Right: box the other side, so the conditional is an Integer. */
    static final class Counter extends Node<Void, Integer> {
        private int i;

        @Override
        protected Integer svc(Void none) {
            return i < 3 ? Integer.valueOf(i++) : eos();
        }
    }
    // end::boxing-pitfall[]

    @Test
    void shouldFailWithNullPointerExceptionWhenATernaryUnboxesEos() {
        Collect<Integer> sink = new Collect<>();
        assertThatThrownBy(() -> new Pipeline(new BrokenCounter(), new Collect<Integer>()).runAndWaitEnd())
                .isInstanceOf(NodeFailedException.class)
                .hasCauseInstanceOf(NullPointerException.class);

        new Pipeline(new Counter(), sink).runAndWaitEnd();
        assertThat(sink.items).containsExactly(0, 1, 2);
    }

    @Test
    void shouldRejectABareNullFromSvc() {
        Node<Void, Integer> broken = new Node<>() {
            @Override
            protected Integer svc(Void none) {
                return null; // neither an item nor goOn()/eos()
            }
        };
        assertThatThrownBy(() -> new Pipeline(broken, new Collect<Integer>()).runAndWaitEnd())
                .isInstanceOf(NodeFailedException.class)
                .hasCauseInstanceOf(NullPointerException.class)
                .hasMessageContaining("svc returned null");
    }
}
