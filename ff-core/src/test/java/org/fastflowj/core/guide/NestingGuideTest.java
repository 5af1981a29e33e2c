package org.fastflowj.core.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.Farm;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Guide: blocks inside blocks, and the composition rules (docs/building-blocks.md, "Nesting"). */
@Timeout(60)
class NestingGuideTest {

    static final class Numbers extends Node<Void, Integer> {
        private final int count;
        private int next;

        Numbers(int count) {
            this.count = count;
        }

        @Override
        protected Integer svc(Void none) {
            return next < count ? Integer.valueOf(next++) : eos();
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

    /** Adds one and notes the name of the thread it ran on. */
    static final class PlusOne extends Node<Integer, Integer> {
        private final Set<String> threads;

        PlusOne(Set<String> threads) {
            this.threads = threads;
        }

        @Override
        protected Integer svc(Integer x) {
            threads.add(Thread.currentThread().getName());
            return x + 1;
        }
    }

    static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }

    @Test
    void shouldChainTwoFarms() {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        // tag::pipeline-of-farms[]
        Collect<Integer> sink = new Collect<>();
        new Pipeline(
                        new Numbers(100),
                        Farm.of(3, () -> new PlusOne(threads)), // its workers fan in to the next emitter
                        Farm.of(2, () -> new PlusOne(threads)),
                        sink)
                .runAndWaitEnd();

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(range(2, 102));
        // end::pipeline-of-farms[]
        assertThat(threads)
                .containsExactlyInAnyOrder(
                        "ff-farm1-worker0",
                        "ff-farm1-worker1",
                        "ff-farm1-worker2",
                        "ff-farm2-worker0",
                        "ff-farm2-worker1");
    }

    @Test
    void shouldRunAPipelineAsAFarmWorker() {
        // tag::farm-of-pipelines[]
        Set<String> threads = ConcurrentHashMap.newKeySet();
        Farm farm = Farm.of(2, () -> new Pipeline(new PlusOne(threads), new PlusOne(threads)));
        Collect<Integer> sink = new Collect<>();
        new Pipeline(new Numbers(50), farm, sink).runAndWaitEnd();

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(range(2, 52));
        assertThat(threads)
                .containsExactlyInAnyOrder( // one thread per stage of each worker
                        "ff-farm1-worker0-stage0", "ff-farm1-worker0-stage1",
                        "ff-farm1-worker1-stage0", "ff-farm1-worker1-stage1");
        // end::farm-of-pipelines[]
    }

    @Test
    void shouldFeedAnAllToAllIntoAFarm() {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        // tag::a2a-to-farm[]
        AllToAll a2a = new AllToAll()
                .firstSet(new PlusOne(threads), new PlusOne(threads))
                .secondSet(new PlusOne(threads), new PlusOne(threads), new PlusOne(threads));
        Farm farm = Farm.of(2, () -> new PlusOne(threads));
        Collect<Integer> sink = new Collect<>();
        new Pipeline(new Numbers(60), a2a, farm, sink).runAndWaitEnd(); // 1 -> L (fan out), R -> emitter (fan in)

        assertThat(sink.items).containsExactlyInAnyOrderElementsOf(range(3, 63));
        // end::a2a-to-farm[]
        assertThat(threads).contains("ff-a2a1-L0", "ff-a2a1-L1", "ff-a2a1-R0", "ff-a2a1-R1", "ff-a2a1-R2");
    }

    static final class Pass extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) {
            return x;
        }
    }

    static final class Chooser extends MultiOutputNode<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) {
            return x;
        }
    }

    static final class Gatherer extends MultiInputNode<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) {
            return x;
        }
    }

    static long edgesBetween(Graph graph, String fromPrefix, String toPrefix) {
        return graph.edges().stream()
                .filter(e -> e.kind() == Edge.Kind.FORWARD)
                .filter(e ->
                        e.from().name().startsWith(fromPrefix) && e.to().name().startsWith(toPrefix))
                .count();
    }

    @Test
    void shouldJoinParallelBlocksOneToOneOrByFullShuffle() {
        // tag::composition-rules[]
        // rule 3, equal widths: farm worker i feeds L-Worker i (one-to-one, 3 channels)
        Graph oneToOne = GraphCompiler.compile(new Pipeline(
                new Numbers(1),
                Farm.of(3, Pass::new),
                new AllToAll().firstSet(new Pass(), new Pass(), new Pass()).secondSet(new Pass())));
        assertThat(edgesBetween(oneToOne, "ff-farm1-worker", "ff-a2a1-L")).isEqualTo(3);

        // rule 3, different widths: every worker feeds every L-Worker (3 x 2 channels)
        Graph shuffle = GraphCompiler.compile(new Pipeline(
                new Numbers(1),
                Farm.of(3, Pass::new),
                new AllToAll().firstSet(new Pass(), new Pass()).secondSet(new Pass())));
        assertThat(edgesBetween(shuffle, "ff-farm1-worker", "ff-a2a1-L")).isEqualTo(6);

        // rule 3, both sides choose their channels: full shuffle even for equal widths (3 x 3)
        Graph chosen = GraphCompiler.compile(new Pipeline(
                new Numbers(1),
                Farm.of(3, Chooser::new),
                new AllToAll()
                        .firstSet(new Gatherer(), new Gatherer(), new Gatherer())
                        .secondSet(new Pass())));
        assertThat(edgesBetween(chosen, "ff-farm1-worker", "ff-a2a1-L")).isEqualTo(9);

        // rule 2: a node after a parallel block fans in (one channel per worker)
        Graph fanIn = GraphCompiler.compile(new Pipeline(new Numbers(1), Farm.of(4, Pass::new), new Pass()));
        assertThat(fanIn.vertex("ff-pipe1-stage2").forwardIn()).hasSize(4);
        // end::composition-rules[]
    }
}
