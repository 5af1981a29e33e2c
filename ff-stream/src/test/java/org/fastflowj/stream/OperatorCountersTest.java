package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An operator's counts (late, skipped) are its nodes' counters, under the nodes' operator names; the
 * compiler's fusions are stated in lines.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OperatorCountersTest {
    record Reading(long ts, String key, long value) {}

    @Test
    void shouldStateTheFusionOfAMapAndAFilter() {
        StreamJob job = StreamJob.named("fusion");
        CollectSink<Integer> out = Sinks.collect();
        job.source(Sources.of(List.of(1, 2, 3, 4)))
                .map(x -> x * 10)
                .name("times ten")
                .parallelism(2)
                .filter(x -> x > 10)
                .name("big")
                .sink(out);

        assertThat(job.fusions())
                .containsExactly(
                        "fused times ten -> big into node times ten+big: neighbours of parallelism 2, one thread per instance");
        JobStats stats = job.run();
        assertThat(out.items()).containsExactlyInAnyOrder(20, 30, 40);
        assertThat(stats.run().nodes()).extracting(NodeStats::name).contains("times ten+big[0]", "times ten+big[1]");
    }

    @Test
    void shouldCountSkippedRecordsOnTheOperatorsNodes() {
        StreamJob job = StreamJob.named("skips");
        CollectSink<Integer> out = Sinks.collect();
        List<String> input = IntStream.range(0, 40)
                .mapToObj(i -> i % 4 == 0 ? "x" + i : String.valueOf(i))
                .toList();
        job.source(Sources.of(input))
                .map(Integer::parseInt)
                .name("parse")
                .parallelism(2)
                .onError(ErrorPolicy.skip())
                .sink(out);

        JobStats stats = job.run();

        assertThat(out.items()).hasSize(30);
        assertThat(stats.skippedRecords()).containsExactly(Map.entry("parse", 10L));
        long onNodes = stats.run().nodes().stream()
                .filter(n -> n.name().startsWith("parse["))
                .peek(n -> assertThat(n.counters()).containsOnlyKeys("skipped"))
                .mapToLong(NodeStats::skippedItems)
                .sum();
        assertThat(onNodes).isEqualTo(10);
    }

    @Test
    void shouldCountLateRecordsOnTheWindowsNode() {
        List<Reading> input = List.of(
                new Reading(10, "k", 1),
                new Reading(120, "k", 1), // watermark 119: window [0,100) fires
                new Reading(30, "k", 1), // late
                new Reading(40, "k", 1), // late
                new Reading(130, "k", 1));
        StreamJob job = StreamJob.named("late");
        CollectSink<Long> out = Sinks.collect();
        job.source(Sources.of(input))
                .withTimestamps(Reading::ts, Watermarks.ascending())
                .keyBy(Reading::key)
                .window(Windows.tumbling(Duration.ofMillis(100)))
                .aggregate(Aggregates.counting())
                .map(WindowResult::value)
                .sink(out);

        JobStats stats = job.run();

        assertThat(stats.lateRecords()).containsEntry("tumbling(100ms)", 2L);
        NodeStats window = stats.run().nodes().stream()
                .filter(n -> n.name().contains("tumbling(100ms)"))
                .findFirst()
                .orElseThrow();
        assertThat(window.counter("late")).isEqualTo(2);
        assertThat(window.counters()).doesNotContainKey("skipped"); // the default policy fails: nothing to count
    }

    @Test
    void shouldGiveAThroughNodeTheStreamsErrorPolicy() {
        StreamJob job = StreamJob.named("through");
        CollectSink<Integer> out = Sinks.collect();
        CollectSink<DeadLetter> dead = Sinks.collect();
        job.source(Sources.of(List.of("1", "x", "3", "y")))
                .<Integer>through(Node.<String, Integer>of(Integer::parseInt))
                .name("parse")
                .onError(ErrorPolicy.deadLetter(dead))
                .sink(out);

        JobStats stats = job.run();

        assertThat(out.items()).containsExactly(1, 3);
        assertThat(dead.items()).extracting(DeadLetter::record).containsExactly("x", "y");
        assertThat(dead.items()).extracting(DeadLetter::operator).containsOnly("parse");
        assertThat(stats.deadLetters()).containsExactly(Map.entry("parse", 2L));
    }
}
