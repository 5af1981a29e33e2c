package org.fastflowj.launcher.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.checkpoint.CheckpointStats;
import org.fastflowj.dist.StatsLine;
import org.junit.jupiter.api.Test;

class GroupReportsTest {
    /** A pipeline of a receiver and a stage: the stage takes in {@code in} items. */
    private static RunStats stats(long in) {
        return new RunStats(
                List.of(new NodeStats("receiver", 0, in, 0, 0, 0, -1), new NodeStats("square", in, in, 0, 0, 0, -1)),
                List.of(new LinkStats("A -> B", in, 8 * in, 1, 0)));
    }

    @Test
    void shouldGiveTheRateBetweenTheLastTwoReportsOfTheBusiestNode() {
        GroupReports reports = new GroupReports();
        assertThat(reports.rate("B")).isEqualTo(-1);

        reports.accept("B", StatsLine.format(false, 1_000, stats(100)));
        reports.accept("B", StatsLine.format(false, 2_000, stats(600)));
        assertThat(reports.rate("B")).isCloseTo(500, within(1e-9));
        assertThat(reports.finalStats("B")).isNull();

        reports.accept("B", StatsLine.format(true, 4_000, stats(1_000)));
        assertThat(reports.rate("B")).as("the average over the run").isCloseTo(250, within(1e-9));
        assertThat(reports.finalStats("B")).isEqualTo(stats(1_000));
    }

    @Test
    void shouldShowAGroupsNewestCheckpointBesideItsRate() {
        GroupReports reports = new GroupReports();
        StatusBoard status = new StatusBoard(List.of("B"), null, reports);
        status.update("B", "starting");
        status.update("B", "connected");
        RunStats plain = stats(100);
        reports.accept("B", StatsLine.format(false, 1_000, plain));
        assertThat(status.describe("B")).doesNotContain("checkpoint");

        RunStats withCheckpoint = new RunStats(
                plain.nodes(),
                plain.links(),
                plain.queues(),
                Optional.of(new CheckpointStats(3, 7, 12_000_000, 940, 1_000_000, 0)));
        reports.accept("B", StatsLine.format(false, 2_000, withCheckpoint));

        assertThat(status.describe("B")).endsWith(", checkpoint 7 (12 ms, 940 B, aligned in 1 ms)");
        assertThat(reports.checkpoints("B"))
                .contains(withCheckpoint.checkpoints().get());
    }

    @Test
    void shouldKeepTheFinalReportWhenAProgressLineCrossesIt() {
        GroupReports reports = new GroupReports();
        reports.accept("B", StatsLine.format(true, 4_000, stats(1_000)));
        reports.accept("B", StatsLine.format(false, 3_990, stats(990)));
        reports.accept("B", "DFF_PROGRESS: garbled");

        assertThat(reports.finalStats("B")).isEqualTo(stats(1_000));
        assertThat(reports.latestStats()).containsOnlyKeys("B");
    }

    @Test
    void shouldLabelEverySeriesWithTheProgramAndItsGroupAndNameEachFamilyOnce() {
        Map<String, RunStats> byGroup = new LinkedHashMap<>();
        byGroup.put("A", stats(3));
        byGroup.put("B", stats(5));
        String text = LauncherMetrics.format(byGroup, "word \"count\"");

        assertThat(text)
                .contains(
                        "fastflowj_node_items_in_total{program=\"word \\\"count\\\"\",group=\"A\",node=\"square\"} 3\n")
                .contains(
                        "fastflowj_node_items_in_total{program=\"word \\\"count\\\"\",group=\"B\",node=\"square\"} 5\n")
                .contains(
                        "fastflowj_link_bytes_total{program=\"word \\\"count\\\"\",group=\"B\",link=\"A -> B\"} 40\n");
        assertThat(text.lines().filter(l -> l.startsWith("# HELP fastflowj_node_items_in_total")))
                .hasSize(1);
        // a family's samples follow its HELP and TYPE, together
        List<String> lines = text.lines().toList();
        int type = lines.indexOf("# TYPE fastflowj_node_items_in_total counter");
        assertThat(lines.subList(type + 1, type + 5))
                .allSatisfy(l -> assertThat(l).startsWith("fastflowj_node_items_in_total{"));
    }
}
