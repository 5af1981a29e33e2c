package org.fastflowj.core.fastflow.combiner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.fastflowj.core.Combiner;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.testing.FfTestNodes.Range;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Behaviour of FastFlow's tests/test_combine6.cpp: a farm whose emitter is a source fused with two filters and
 * whose collector is fused with a filter and the sink; every fused node is told of the end of stream once, and
 * the sink gets every item.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CombinerEosNotifyTest {

    static final List<String> EVENTS = new CopyOnWriteArrayList<>();

    /** Passes items on and records its end-of-stream notification. */
    static class Pass extends Node<Long, Long> {
        private final String name;

        Pass(String name) {
            this.name = name;
        }

        @Override
        protected Long svc(Long in) {
            return in;
        }

        @Override
        protected void eosNotify(int channel) {
            EVENTS.add(name == null ? "Worker" + id() : name);
        }
    }

    static final class Emit extends MultiOutputNode<Long, Long> {
        @Override
        protected Long svc(Long in) {
            sendOut(in);
            return goOn();
        }

        @Override
        protected void eosNotify(int channel) {
            EVENTS.add("Emitter");
        }
    }

    static final class Sink extends Node<Long, Void> {
        final List<Long> got = new ArrayList<>();
        boolean ended;

        @Override
        protected Void svc(Long in) {
            got.add(in);
            return goOn();
        }

        @Override
        protected void svcEnd() {
            ended = true;
        }
    }

    @Test
    void shouldNotifyEveryFusedNodeOnceAndDeliverEveryItem() {
        EVENTS.clear();
        int tasks = 1000;
        Sink sink = new Sink();
        var first = Combiner.of(new Range(1, tasks), Combiner.of(new Pass("Filter1"), new Emit()));
        var third = Combiner.of(Combiner.of(new Pass("Collector"), new Pass("Filter2")), sink);
        Farm.of(4, () -> new Pass(null)).emitter(first).collector(third).runAndWaitEnd();

        assertThat(sink.got)
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, tasks).boxed().toList());
        assertThat(sink.ended).isTrue();
        assertThat(EVENTS)
                .containsExactlyInAnyOrder(
                        "Filter1", "Emitter", "Worker0", "Worker1", "Worker2", "Worker3", "Collector", "Filter2");
        assertThat(EVENTS.indexOf("Filter1")).isLessThan(EVENTS.indexOf("Emitter"));
        assertThat(EVENTS.indexOf("Collector")).isLessThan(EVENTS.indexOf("Filter2"));
    }
}
