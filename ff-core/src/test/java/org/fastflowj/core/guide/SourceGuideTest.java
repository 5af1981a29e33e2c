package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: source nodes, and how a stream ends early (docs/building-blocks.md, "Sources"). */
@Timeout(60)
class SourceGuideTest {

    static final class Collect<T> extends Node<T, Void> {
        final List<T> items = new ArrayList<>();

        @Override
        protected Void svc(T item) {
            items.add(item);
            return goOn();
        }
    }

    // tag::one-per-call[]
    /** One item per call: svc(null) runs until it returns eos(), here count + 1 times. */
    static final class Letters extends Node<Void, String> {
        private final String text;
        private int next;
        int calls;

        Letters(String text) {
            this.text = text;
        }

        @Override
        protected String svc(Void none) {
            calls++;
            return next < text.length() ? String.valueOf(text.charAt(next++)) : eos();
        }
    }
    // end::one-per-call[]

    // tag::all-in-one-call[]
    /** All items in one call: sendOut each, then return eos(). svc runs exactly once. */
    static final class Words extends Node<Void, String> {
        private final String text;
        int calls;

        Words(String text) {
            this.text = text;
        }

        @Override
        protected String svc(Void none) {
            calls++;
            for (String word : text.split(" ")) {
                sendOut(word);
            }
            return eos();
        }
    }
    // end::all-in-one-call[]

    @Test
    void shouldCallASourceUntilItReturnsEos() {
        Letters letters = new Letters("abc");
        Collect<String> sink = new Collect<>();
        new Pipeline(letters, sink).runAndWaitEnd();

        assertThat(sink.items).containsExactly("a", "b", "c");
        assertThat(letters.calls).isEqualTo(4);
    }

    @Test
    void shouldDeliverEverythingASourceSentBeforeItsEos() {
        Words words = new Words("to be or not to be");
        Collect<String> sink = new Collect<>();
        new Pipeline(words, sink).runAndWaitEnd();

        assertThat(sink.items).containsExactly("to", "be", "or", "not", "to", "be");
        assertThat(words.calls).isEqualTo(1);
    }

    // tag::early-termination[]
    /** Never returns eos(): it stops only because its consumer ended. */
    static final class Naturals extends Node<Void, Long> {
        private long next;

        @Override
        protected Long svc(Void none) {
            return next++;
        }
    }

    /** Takes the first `limit` items, then ends the stream. */
    static final class Take<T> extends Node<T, T> {
        private final int limit;
        private int taken;

        Take(int limit) {
            this.limit = limit;
        }

        @Override
        protected T svc(T item) {
            return ++taken < limit ? item : lastThenEnd(item);
        }

        private T lastThenEnd(T item) {
            sendOut(item);
            return eos();
        }
    }
    // end::early-termination[]

    @Test
    void shouldEndAnInfiniteSourceWhenItsConsumerEnds() {
        // tag::early-termination-run[]
        Collect<Long> sink = new Collect<>();
        new Pipeline(new Naturals(), new Take<Long>(10), sink).runAndWaitEnd(); // terminates

        assertThat(sink.items).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
        // end::early-termination-run[]
    }
}
