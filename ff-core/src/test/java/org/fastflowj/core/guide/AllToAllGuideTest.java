package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: the all-to-all and its policies (docs/building-blocks.md, "All-to-all"). */
@Timeout(60)
class AllToAllGuideTest {

    /** L-Worker i of an all-to-all with no input is a source: it emits 100 * i .. 100 * i + count - 1. */
    static final class Range extends Node<Void, Integer> {
        private final int count;
        private int k;

        Range(int count) {
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            return k < count ? Integer.valueOf(100 * id() + k++) : eos();
        }
    }

    static final class Recorder extends Node<Integer, Integer> {
        final List<Integer> seen = new ArrayList<>();

        @Override
        protected Integer svc(Integer item) {
            seen.add(item);
            return item;
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

    static List<Integer> expected(int lWorkers, int count) {
        return IntStream.range(0, lWorkers)
                .boxed()
                .flatMap(i -> IntStream.range(0, count).mapToObj(k -> 100 * i + k))
                .toList();
    }

    @Test
    void shouldShuffleEveryLWorkerToEveryRWorker() {
        // tag::round-robin[]
        List<Recorder> rWorkers = List.of(new Recorder(), new Recorder(), new Recorder());
        AllToAll a2a = new AllToAll()
                .firstSet(new Range(30), new Range(30)) // L-Workers
                .secondSet(rWorkers); // R-Workers
        Collect<Integer> sink = new Collect<>();
        new Pipeline(a2a, sink).runAndWaitEnd(); // the R-Workers fan in to the sink

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(expected(2, 30));
        assertThat(rWorkers).allSatisfy(r -> assertThat(r.seen).isNotEmpty());
        // end::round-robin[]
    }

    // tag::by-key[]
    /** L-Worker that sends each item to the R-Worker owning its key (here: the item modulo R). */
    static final class Partition extends MultiOutputNode<Void, Integer> {
        private final int count;

        Partition(int count) {
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            for (int k = 0; k < count; k++) {
                int item = 100 * id() + k;
                sendOutTo(item, item % outputChannels()); // output channel j = R-Worker j
            }
            return eos();
        }
    }
    // end::by-key[]

    @Test
    void shouldSendEachKeyToOneRWorker() {
        List<Recorder> rWorkers = List.of(new Recorder(), new Recorder(), new Recorder());
        new AllToAll()
                .firstSet(new Partition(30), new Partition(30))
                .secondSet(rWorkers)
                .runAndWaitEnd();

        for (int j = 0; j < 3; j++) {
            int owner = j;
            assertThat(rWorkers.get(j).seen).hasSize(20).allMatch(item -> item % 3 == owner);
        }
    }

    // tag::broadcast[]
    static final class Announce extends MultiOutputNode<Void, String> {
        @Override
        protected String svc(Void none) {
            broadcast("hello from L" + id()); // every R-Worker gets it
            return eos();
        }
    }

    /** R-Worker as a multi-input node: input channel i is L-Worker i. */
    static final class Listen extends MultiInputNode<String, Void> {
        final List<String> heard = new ArrayList<>();

        @Override
        protected Void svc(String message) {
            heard.add(inputChannel() + ": " + message);
            return goOn();
        }
    }
    // end::broadcast[]

    @Test
    void shouldBroadcastFromEachLWorkerToEveryRWorker() {
        List<Listen> rWorkers = List.of(new Listen(), new Listen());
        new AllToAll()
                .firstSet(new Announce(), new Announce(), new Announce())
                .secondSet(rWorkers)
                .runAndWaitEnd();

        assertThat(rWorkers).allSatisfy(r -> assertThat(r.heard)
                .containsExactlyInAnyOrder("0: hello from L0", "1: hello from L1", "2: hello from L2"));
    }

    @Test
    void shouldDeliverEverythingOnDemand() {
        // tag::on-demand[]
        AllToAll a2a = new AllToAll()
                .firstSet(new Range(50), new Range(50))
                .secondSet(new Recorder(), new Recorder(), new Recorder())
                .onDemand(); // an L-Worker sends only where a slot is free
        Collect<Integer> sink = new Collect<>();
        new Pipeline(a2a, sink).runAndWaitEnd();

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(expected(2, 50));
        // end::on-demand[]
    }
}
