package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A node's name replaces its place in the tree in thread names, errors, stats and DOT. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NamedNodesTest {
    @Test
    void shouldNameTheThreadAndTheStatsAfterTheNode() {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        Node<Void, Integer> source = Node.source(List.of(1, 2, 3)).named("numbers");
        Node<Integer, Integer> square = Node.<Integer, Integer>of(x -> {
                    threads.add(Thread.currentThread().getName());
                    return x * x;
                })
                .named("square");
        Pipeline pipe = new Pipeline(source, square, Node.sink("total", x -> {}));

        pipe.runAndWaitEnd();

        assertThat(threads).containsExactly("square");
        assertThat(pipe.stats().node("square"))
                .hasValueSatisfying(s -> assertThat(s.itemsIn()).isEqualTo(3));
        assertThat(pipe.stats().node("numbers"))
                .hasValueSatisfying(s -> assertThat(s.itemsOut()).isEqualTo(3));
        assertThat(pipe.stats().node("total")).isPresent();
        assertThat(pipe.stats().toTable()).contains("square", "total");
    }

    @Test
    void shouldNameTheNodesOfTheGuidesSample() {
        // tag::named[]
        Pipeline pipe = new Pipeline(
                Node.source("numbers", List.of(1, 2, 3)),
                Node.of("square", (Integer x) -> x * x),
                Node.sink("total", x -> {}));
        pipe.runAndWaitEnd();
        NodeStats square = pipe.stats().node("square").orElseThrow(); // not "ff-pipe1-stage1"
        // end::named[]
        assertThat(square.itemsOut()).isEqualTo(3);
        assertThat(pipe.toDot()).contains("\"square\"").doesNotContain("ff-pipe1-stage1");
    }

    @Test
    void shouldNameTheNodeInItsFailure() {
        Pipeline pipe = new Pipeline(
                Node.source(List.of(1, 2, 3)),
                Node.<Integer, Integer>of(x -> {
                            throw new IllegalStateException("cannot parse " + x);
                        })
                        .named("parser"),
                Node.sink(x -> {}));

        assertThatThrownBy(pipe::runAndWaitEnd)
                .isInstanceOfSatisfying(
                        NodeFailedException.class, e -> assertThat(e.nodeName()).isEqualTo("parser"))
                .hasMessageStartingWith("node parser failed in svc: java.lang.IllegalStateException: cannot parse 1");
    }

    @Test
    void shouldDrawTheNameInDotAndNeverALambdasClassName() {
        Pipeline pipe = new Pipeline(
                Node.source(List.of(1)).named("numbers"),
                Node.<Integer, Integer>of(x -> x),
                Node.sink(x -> {}).named("total"));

        String dot = pipe.toDot();

        assertThat(dot).contains("\"numbers\"", "\"total\"", "node Node.of(lambda in NamedNodesTest)");
        assertThat(dot).doesNotContain("$$Lambda");
    }

    @Test
    void shouldReadAnUnnamedLambdaNodeByItsKindAndDeclaringClass() {
        assertThat(Node.sink(x -> {}).toString()).isEqualTo("node Node.sink(lambda in NamedNodesTest)");
        assertThat(Node.of(String::valueOf).toString()).isEqualTo("node Node.of(lambda in NamedNodesTest)");
        assertThat(Node.of(String::valueOf).named("format").toString()).isEqualTo("node format");
        assertThat(Node.of("format", (Integer x) -> x + 1).toString()).isEqualTo("node format");
    }

    @Test
    void shouldTellTwoNodesOfTheSameNameApart() {
        Farm farm = Farm.of(List.of(
                        Node.<Integer, Integer>of(x -> x).named("worker"),
                        Node.<Integer, Integer>of(x -> x).named("worker")))
                .collector(Node.<Integer, Integer>of(x -> x));
        Pipeline pipe = new Pipeline(Node.source(List.of(1, 2, 3, 4)), farm, Node.sink(x -> {}));

        pipe.runAndWaitEnd();

        assertThat(pipe.stats().node("worker")).isPresent();
        assertThat(pipe.stats().node("worker#2")).isPresent();
        assertThat(pipe.stats().node("worker").orElseThrow().itemsIn()
                        + pipe.stats().node("worker#2").orElseThrow().itemsIn())
                .isEqualTo(4);
    }

    @Test
    void shouldRefuseAnEmptyName() {
        assertThatThrownBy(() -> Node.sink(x -> {}).named(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("named(\" \"): a name must not be empty");
    }

    @Test
    void shouldNameAFarmsClusterAndItsThreads() {
        Farm search = Farm.of(2, () -> Node.<Integer, Integer>of(x -> x)).named("search");
        Pipeline pipe = new Pipeline(Node.source(List.of(1, 2, 3)), search, Node.sink(x -> {}));

        String dot = pipe.toDot();
        pipe.runAndWaitEnd();

        assertThat(pipe.stats().node("ff-search-worker0")).isPresent();
        assertThat(pipe.stats().node("ff-search-worker1")).isPresent();
        assertThat(dot).contains("search").doesNotContain("farm1");
    }

    @Test
    void shouldNameAFusedThreadAfterItsNamedParts() {
        Pipeline pipe = new Pipeline(
                Node.source("numbers", List.of(1, 2, 3)),
                Node.of("double", (Integer x) -> x * 2),
                Node.of((Integer x) -> x - 1),
                Node.sink("total", x -> {}));

        String dot = pipe.toDot(RunOptions.defaults().optimize(OptLevel.LEVEL1).maxThreads(2));

        assertThat(dot).contains("\"numbers+double\"", "\"total\"");
    }
}
