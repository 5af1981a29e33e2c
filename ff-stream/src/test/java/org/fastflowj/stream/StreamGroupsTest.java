package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.fastflowj.core.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stages in ff-dist groups, on ff-core alone: the layout passes ff-core's group rules (checked when the graph
 * is built, as in every group's process) and the job, run whole in one process, gives the output it gives
 * without groups; a layout ff-dist cannot run fails at build, naming the operator.
 */
@Timeout(60)
class StreamGroupsTest {
    record Click(long ts, String user) {}

    private static final List<Click> CLICKS = LongStream.range(0, 20_000)
            .mapToObj(i -> new Click(i * 3 + (i * 7919) % 500, "u" + (i * 31) % 23))
            .toList();

    /** source and timestamps, a rebalanced map at parallelism 2, keyed tumbling counts at 3, format, sink. */
    private static List<String> run(
            Function<DataStream<Click>, DataStream<Click>> beforeMap,
            String mapGroup,
            String countGroup,
            String formatGroup) {
        StreamJob job = StreamJob.named("clicks");
        CollectSink<String> out = Sinks.collect();
        DataStream<Click> parsed = beforeMap.apply(job.source(Sources.of(CLICKS))
                .name("read")
                .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofMillis(500))));
        DataStream<Click> mapped = parsed.rebalance().map(c -> c).name("touch").parallelism(2);
        group(mapped, mapGroup);
        DataStream<WindowResult<String, Long>> counts = mapped.keyBy(Click::user)
                .window(Windows.tumbling(Duration.ofMillis(1_000)))
                .aggregate(Aggregates.counting())
                .name("count")
                .parallelism(3);
        group(counts, countGroup);
        DataStream<String> formatted =
                counts.map(r -> r.start() + "," + r.key() + "," + r.value()).name("format");
        if (formatGroup != null) {
            formatted = formatted
                    .rebalance()
                    .map(s -> s)
                    .name("copy")
                    .parallelism(2)
                    .group(formatGroup);
        }
        formatted.sink(out);
        job.run();
        return out.items().stream().sorted().toList();
    }

    private static void group(DataStream<?> stream, String group) {
        if (group != null) {
            stream.group(group);
        }
    }

    private static List<String> ungrouped() {
        return run(s -> s, null, null, null);
    }

    @Test
    void shouldGiveTheUngroupedOutputWithTheWindowsInAGroupOfTheirOwn() {
        List<String> expected = ungrouped();

        assertThat(expected).hasSizeGreaterThan(100);
        assertThat(run(s -> s, null, "W", null)).isEqualTo(expected);
    }

    @Test
    void shouldGiveTheUngroupedOutputWhenTheStageAfterNextIsGroupedOrTwoGroupedStagesFollowEachOther() {
        List<String> expected = ungrouped();

        assertThat(run(s -> s, "M", null, null)).isEqualTo(expected); // the map second of its all-to-all
        assertThat(run(s -> s, null, "W", "C")).isEqualTo(expected);
        assertThat(run(s -> s, "M", "W", "C")).isEqualTo(expected); // W behind an entry node of main
        assertThat(run(s -> s.group("R"), "M", "W", "C")).isEqualTo(expected); // the source too
        assertThat(run(s -> s.group(BlockCompilerHome.NAME), null, "W", null)).isEqualTo(expected);
    }

    @Test
    void shouldJoinInAGroupOfItsOwnAsWithoutGroups() {
        List<String> expected = join(null);

        assertThat(expected).hasSizeGreaterThan(100);
        assertThat(join("J")).isEqualTo(expected);
    }

    private static List<String> join(String group) {
        StreamJob job = StreamJob.named("join");
        CollectSink<String> out = Sinks.collect();
        DataStream<Click> left = job.source(Sources.of(CLICKS.subList(0, 3_000)))
                .name("left")
                .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofMillis(500)));
        DataStream<Click> right = job.source(Sources.of(CLICKS.subList(1_000, 4_000)))
                .name("right")
                .withTimestamps(Click::ts, Watermarks.boundedDisorder(Duration.ofMillis(500)));
        DataStream<String> pairs = left.join(right)
                .where(Click::user)
                .equalTo(Click::user)
                .window(Windows.tumbling(Duration.ofMillis(200)))
                .apply((l, r) -> l.ts() + "-" + r.ts())
                .name("pairs")
                .parallelism(2);
        group(pairs, group);
        pairs.sink(out);
        job.run();
        return out.items().stream().sorted().toList();
    }

    @Test
    void shouldDrawTheGroupsAsTheRunWouldCutThem() {
        StreamJob job = StreamJob.named("drawn");
        job.source(Sources.of(CLICKS))
                .keyBy(Click::user)
                .reduce((a, b) -> b)
                .name("latest")
                .parallelism(2)
                .group("W")
                .sink(Sinks.collect());

        String dot = job.toDot();

        assertThat(dot).contains("label=\"group main\"", "label=\"group W\"");
        assertThat(dot.substring(dot.indexOf("label=\"group W\""))).contains("latest[0]", "latest[1]");
        assertThat(dot.substring(dot.indexOf("label=\"group main\""), dot.indexOf("label=\"group W\"")))
                .contains("collect")
                .doesNotContain("latest[");
    }

    // tag::bad-group[]
    @Test
    void shouldRefuseTwoGroupsInOneFusedStageNamingBothOperators() {
        StreamJob job = StreamJob.named("fused");
        job.source(Sources.of(CLICKS))
                .map(c -> c.user())
                .name("user")
                .group("A")
                .map(String::length)
                .name("length")
                .group("B") // same parallelism, forward: one thread with "user", so one group
                .sink(Sinks.collect());

        assertThatThrownBy(job::run)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'user' is set to run in group A and 'length' in group B")
                .hasMessageContaining("fused into one stage");
    }
    // end::bad-group[]

    @Test
    void shouldRefuseOneGroupForTwoStagesNamingThem() {
        StreamJob job = StreamJob.named("twice");
        job.source(Sources.of(CLICKS))
                .rebalance()
                .map(Click::user)
                .name("user")
                .parallelism(2)
                .group("W")
                .keyBy(u -> u)
                .reduce((a, b) -> a + b)
                .name("concat")
                .parallelism(3)
                .group("W")
                .sink(Sinks.collect());

        assertThatThrownBy(job::toDot)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'concat' is set to run in group W and so does 'user', in another stage")
                .hasMessageContaining("holds one stage");
    }

    @Test
    void shouldRefuseAGroupBeforeAUnionOrInAJobOfTwoSinksNamingTheOperator() {
        StreamJob union = StreamJob.named("union");
        DataStream<Click> a =
                union.source(Sources.of(CLICKS)).map(c -> c).name("left").group("L");
        DataStream<Click> b = union.source(Sources.of(CLICKS)).name("right");
        a.union(b).sink(Sinks.collect());

        assertThatThrownBy(union::run)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'left' is set to run in group L but feeds a union or a join");

        StreamJob two = StreamJob.named("two");
        two.source(Sources.of(CLICKS))
                .map(c -> c)
                .name("one")
                .parallelism(2)
                .group("W")
                .sink(Sinks.collect());
        two.source(Sources.of(CLICKS)).name("other").sink(Sinks.collect());

        assertThatThrownBy(two::run)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'one' is set to run in group W, but the job has 2 sinks");
    }

    @Test
    void shouldRefuseABadGroupNameAndAGroupForABlockNamingTheOperator() {
        StreamJob job = StreamJob.named("names");
        DataStream<Click> read = job.source(Sources.of(CLICKS)).name("read");

        assertThatThrownBy(() -> read.group("-x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'read': \"-x\" is not a group name");
        DataStream<String> through = read.map(Click::user).<String>through(Node.<String, String>of(s -> s));
        assertThatThrownBy(() -> through.group("B"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a block dropped into a stream runs in the home group main");
    }

    /** The home group's name, as a program would write it. */
    private static final class BlockCompilerHome {
        static final String NAME = "main";
    }
}
