package org.fastflowj.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NodeFactoriesTest {
    @Test
    void shouldStreamAnIterableThroughAFarmIntoASink() {
        // tag::source-sink[]
        List<Integer> input = IntStream.range(0, 10_000).boxed().toList();
        List<Integer> out = new ArrayList<>(); // only the sink's thread touches it until waitEnd returns
        new Pipeline(
                        Node.source(input),
                        Farm.of(3, () -> Node.<Integer, Integer>of(x -> x * 3)).ordered(),
                        Node.<Integer>sink(out::add))
                .runAndWaitEnd();
        // end::source-sink[]
        assertThat(out).isEqualTo(input.stream().map(x -> x * 3).toList());
    }

    @Test
    void shouldTakeTheIteratorOnTheSourceThreadAtEachRun() {
        List<String> threads = new ArrayList<>();
        Iterable<String> lazy = () -> {
            threads.add(Thread.currentThread().getName());
            return List.of("a", "b").iterator();
        };
        List<String> out = new ArrayList<>();
        Pipeline pipe = new Pipeline(Node.source(lazy), Node.<String>sink(out::add));
        pipe.runAndWaitEnd();
        pipe.runAndWaitEnd();
        assertThat(out).containsExactly("a", "b", "a", "b");
        assertThat(threads).containsExactly("ff-pipe1-stage0", "ff-pipe1-stage0");
    }

    @Test
    void shouldFailNamingTheSourceWhenAnElementIsNull() {
        Pipeline pipe = new Pipeline(Node.source(Arrays.asList("a", null)), Node.sink(x -> {}));
        assertThatThrownBy(pipe::runAndWaitEnd)
                .isInstanceOf(NodeFailedException.class)
                .hasMessageContaining("ff-pipe1-stage0")
                .hasRootCauseMessage("Node.source: null element");
    }
}
