package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A node's error policy: fail (the default), skip or dead-letter an item whose svc threw. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NodeErrorsTest {
    private static final List<Integer> ITEMS =
            IntStream.range(0, 100).boxed().toList(); // 0, 10, ..., 90 are rejected: 10 of them

    /** Throws on every multiple of ten. */
    static final class Rejecting extends Node<Integer, Integer> {
        @Override
        protected Integer svc(Integer x) throws IOException {
            if (x % 10 == 0) {
                throw new IOException("cannot take " + x);
            }
            return x;
        }
    }

    /** Collects what reaches it, from whichever thread runs it. */
    static final class Collect extends Node<Integer, Void> {
        final Queue<Integer> items = new ConcurrentLinkedQueue<>();
        final Semaphore taken = new Semaphore(0);

        @Override
        protected Void svc(Integer x) {
            items.add(x);
            taken.release();
            return goOn();
        }
    }

    private static long skipped(RunStats stats) {
        return stats.nodes().stream().mapToLong(NodeStats::skippedItems).sum();
    }

    @Test
    void shouldFailTheRunNamingTheNodeByDefault() {
        Pipeline pipe = new Pipeline(Node.source(ITEMS), new Rejecting().named("checker"), new Collect());

        NodeFailedException failure = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(failure.nodeName()).isEqualTo("checker");
        assertThat(failure.phase()).isEqualTo("svc");
        assertThat(failure.getCause()).isInstanceOf(IOException.class).hasMessage("cannot take 0");
    }

    @Test
    void shouldSkipFailedItemsAndCountThem() {
        // tag::skip[]
        Collect sink = new Collect();
        Pipeline pipe = new Pipeline(
                Node.source(ITEMS), new Rejecting().named("checker").onError(NodeErrors.skip()), sink);

        pipe.runAndWaitEnd();

        assertThat(sink.items).hasSize(90).doesNotContain(0, 10, 90).contains(1, 99);
        NodeStats checker = pipe.stats().node("checker").orElseThrow();
        assertThat(checker.skippedItems()).isEqualTo(10);
        assertThat(checker.counters()).containsExactly(Map.entry("skipped", 10L));
        // end::skip[]
        assertThat(checker.itemsIn()).isEqualTo(100);
        assertThat(checker.itemsOut()).isEqualTo(90);
        assertThat(pipe.stats().toTable().lines())
                .anyMatch(line -> line.startsWith("node ") && line.endsWith("  counters"))
                .anyMatch(line -> line.startsWith("checker ") && line.endsWith("  skipped=10"))
                .anyMatch(line -> line.startsWith("ff-pipe1-stage0 ") && line.endsWith("  -"));

        pipe.runAndWaitEnd(); // a second run counts its own
        assertThat(pipe.stats().node("checker").orElseThrow().skippedItems()).isEqualTo(10);
    }

    @Test
    void shouldHandDeadLettersTheItemTheNodeAndTheException() {
        // tag::dead-letter[]
        Queue<FailedItem> dead = new ConcurrentLinkedQueue<>();
        Collect sink = new Collect();
        Pipeline pipe = new Pipeline(
                Node.source(ITEMS), new Rejecting().named("checker").onError(NodeErrors.deadLetter(dead::add)), sink);

        pipe.runAndWaitEnd();

        assertThat(sink.items).hasSize(90);
        assertThat(dead).extracting(FailedItem::item).containsExactly(0, 10, 20, 30, 40, 50, 60, 70, 80, 90);
        FailedItem first = dead.peek();
        assertThat(first.node()).isEqualTo("checker");
        assertThat(first.error()).isInstanceOf(IOException.class).hasMessage("cannot take 0");
        // end::dead-letter[]
        NodeStats checker = pipe.stats().node("checker").orElseThrow();
        assertThat(checker.counter("dead-lettered")).isEqualTo(10);
        assertThat(checker.skippedItems()).isZero();
    }

    @Test
    void shouldNameAnUnnamedNodeByItsThreadInADeadLetter() {
        Queue<FailedItem> dead = new ConcurrentLinkedQueue<>();
        Pipeline pipe = new Pipeline(
                Node.source(ITEMS), new Rejecting().onError(NodeErrors.deadLetter(dead::add)), new Collect());

        pipe.runAndWaitEnd();

        assertThat(dead).hasSize(10).allMatch(f -> f.node().equals("ff-pipe1-stage1"));
    }

    @Test
    void shouldApplyEachFusedNodesOwnPolicyInACombiner() {
        // The second fails on multiples of 10; the first skips its own failures (multiples of 7) only:
        // the second's exception, which reaches the first through its sendOut, still fails the run.
        Node<Integer, Integer> sevens = new Node<Integer, Integer>() {
            @Override
            protected Integer svc(Integer x) {
                if (x % 7 == 0 && x % 10 != 0) {
                    throw new IllegalArgumentException("seven " + x);
                }
                sendOut(x);
                return goOn();
            }
        }.onError(NodeErrors.skip());
        Pipeline failing = new Pipeline(
                Node.source(ITEMS), Combiner.of(sevens, new Rejecting()).named("fused"), new Collect());

        NodeFailedException failure = catchThrowableOfType(NodeFailedException.class, failing::runAndWaitEnd);

        assertThat(failure.nodeName()).isEqualTo("fused");
        assertThat(failure.getCause()).isInstanceOf(IOException.class).hasMessage("cannot take 0");

        Collect sink = new Collect();
        Node<Integer, Integer> sevensAgain = Node.<Integer, Integer>of(x -> {
                    if (x % 7 == 0) {
                        throw new IllegalArgumentException("seven " + x);
                    }
                    return x;
                })
                .onError(NodeErrors.skip());
        Pipeline skipping = new Pipeline(
                Node.source(ITEMS),
                Combiner.of(sevensAgain, new Rejecting().onError(NodeErrors.skip()))
                        .named("fused"),
                sink);

        skipping.runAndWaitEnd();

        // 15 multiples of 7 (0 and 70 among them) skipped by the first, the 8 other multiples of 10 by the second
        assertThat(sink.items).hasSize(100 - 15 - 8);
        NodeStats fused = skipping.stats().node("fused").orElseThrow();
        assertThat(fused.skippedItems()).isEqualTo(23);
    }

    @Test
    void shouldRefuseAPolicyOnTheCombinerItself() {
        Combiner<Integer, Integer> combined = Combiner.of(new Rejecting(), new Rejecting());
        assertThatThrownBy(() -> combined.onError(NodeErrors.skip()))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("nodes it fuses");
    }

    @Test
    void shouldSkipInEveryFarmWorker() {
        Collect sink = new Collect();
        Pipeline pipe =
                new Pipeline(Node.source(ITEMS), Farm.of(3, () -> new Rejecting().onError(NodeErrors.skip())), sink);

        pipe.runAndWaitEnd();

        assertThat(sink.items).hasSize(90);
        assertThat(skipped(pipe.stats())).isEqualTo(10);
        assertThat(pipe.stats().node("ff-farm1-worker0").orElseThrow().counters())
                .containsOnlyKeys("skipped");
    }

    @Test
    void shouldSkipInAllToAllMembers() {
        Collect sink = new Collect();
        List<Node<Integer, Integer>> left = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            left.add(new Rejecting().named("left" + i).onError(NodeErrors.skip()));
        }
        AllToAll a2a = new AllToAll().firstSet(left).secondSet(sink);
        Pipeline pipe = new Pipeline(Node.source(ITEMS), a2a);

        pipe.runAndWaitEnd();

        assertThat(sink.items).hasSize(90);
        RunStats stats = pipe.stats();
        assertThat(stats.node("left0").orElseThrow().skippedItems()
                        + stats.node("left1").orElseThrow().skippedItems())
                .isEqualTo(10);
    }

    @Test
    void shouldStillFailTheRunWhenSvcInitThrows() {
        Node<Integer, Integer> broken = new Node<Integer, Integer>() {
            @Override
            protected void svcInit() {
                throw new IllegalStateException("no config");
            }

            @Override
            protected Integer svc(Integer x) {
                return x;
            }
        }.named("broken").onError(NodeErrors.skip());
        Pipeline pipe = new Pipeline(Node.source(ITEMS), broken, new Collect());

        NodeFailedException failure = catchThrowableOfType(NodeFailedException.class, pipe::runAndWaitEnd);

        assertThat(failure.nodeName()).isEqualTo("broken");
        assertThat(failure.phase()).isEqualTo("svcInit");
    }

    /** A node of one's own declares a counter and shows it with its statistics. */
    static final class Odds extends Node<Integer, Integer> {
        final NodeCounter odd = counter("odd");

        @Override
        protected Integer svc(Integer x) {
            if (x % 2 != 0) {
                odd.increment();
            }
            return x;
        }
    }

    @Test
    void shouldShowANodesOwnCountersInItsStatistics() {
        Odds odds = new Odds();
        Pipeline pipe = new Pipeline(Node.source(ITEMS), odds.named("odds"), new Collect());

        pipe.runAndWaitEnd();

        assertThat(pipe.stats().node("odds").orElseThrow().counter("odd")).isEqualTo(50);
        assertThat(odds.odd.get()).isEqualTo(50);
        assertThatThrownBy(() -> new Node<Integer, Integer>() {
                    final NodeCounter a = counter("twice");
                    final NodeCounter b = counter("twice");

                    @Override
                    protected Integer svc(Integer x) {
                        return x;
                    }
                })
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already has a counter named 'twice'");
    }

    @Test
    void shouldServeANamedNodesSkippedCountAtMetricsDuringTheRun() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Node<Void, Integer> source = new Node<Void, Integer>() {
            private int next;

            @Override
            protected Integer svc(Void none) throws InterruptedException {
                if (next < ITEMS.size()) {
                    return next++;
                }
                // every item sent: hold the run open until the test has read the page
                return release.await(10, TimeUnit.MILLISECONDS) ? eos() : goOn();
            }
        };
        Collect sink = new Collect();
        Pipeline pipe = new Pipeline(source, new Rejecting().named("checker").onError(NodeErrors.skip()), sink);
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        pipe.run(RunOptions.defaults().ui(0));
        try {
            assertThat(sink.taken.tryAcquire(90, 20, TimeUnit.SECONDS)).isTrue();
            // item 99 reached the sink after the checker counted its last skip (item 90)
            String metrics = get(client, URI.create("http://127.0.0.1:" + pipe.uiPort() + "/metrics"));
            assertThat(metrics)
                    .contains("# TYPE fastflowj_node_counter_total counter\n")
                    .contains("fastflowj_node_counter_total{node=\"checker\",counter=\"skipped\"} 10\n")
                    .contains("fastflowj_node_items_in_total{node=\"checker\"} 100\n");
            String stats = get(client, URI.create("http://127.0.0.1:" + pipe.uiPort() + "/api/stats"));
            assertThat(stats).contains("\"name\":\"checker\"").contains("\"counters\":{\"skipped\":10}");
        } finally {
            release.countDown();
            assertThat(pipe.waitEnd(20, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(pipe.stats().node("checker").orElseThrow().skippedItems()).isEqualTo(10);
    }

    private static String get(HttpClient client, URI uri) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(uri)
                        .timeout(Duration.ofSeconds(10))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s", uri).isEqualTo(200);
        return response.body();
    }
}
