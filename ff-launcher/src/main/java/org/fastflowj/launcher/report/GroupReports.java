package org.fastflowj.launcher.report;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.checkpoint.CheckpointStats;
import org.fastflowj.dist.StatsLine;

/**
 * What the groups report of their statistics ({@link StatsLine}): each group's latest snapshot, its
 * final statistics once it ended, and its rate.
 *
 * <p>The rate is the items per second taken in by the group's busiest node (the most items in): every
 * stage of a pipeline takes each item once, and a farm's emitter and collector take them all, so that
 * node's count is the group's flow of items, where a sum over the nodes would count an item once per
 * stage. While the group runs it is the rate between its last two reports; once it ended, the average
 * over its life.
 *
 * <p>Threading: fed by the groups' pump threads, read by the status board, the metrics server and the
 * run's end; every method is synchronized.
 */
public final class GroupReports {
    private final Map<String, StatsLine.Report> latest = new LinkedHashMap<>();
    private final Map<String, StatsLine.Report> previous = new LinkedHashMap<>();
    /** The program's graph as the first group to start reported it ({@link StatsLine#GRAPH}), or null. */
    private String graphJson;

    /** Takes one of {@code group}'s report lines; a line that does not parse is dropped. */
    public synchronized void accept(String group, String line) {
        String graph = StatsLine.graphOf(line);
        if (graph != null) {
            if (graphJson == null && graph.startsWith("{") && graph.endsWith("}")) {
                graphJson = graph; // every group has the whole program: the first one's will do
            }
            return;
        }
        StatsLine.Report report;
        try {
            report = StatsLine.parse(line);
        } catch (IllegalArgumentException e) {
            return; // a report is an extra: a garbled one must not disturb the run
        }
        StatsLine.Report before = latest.get(group);
        if (before != null && before.last()) {
            return; // the final statistics stay; a progress line may cross them
        }
        if (before != null) {
            previous.put(group, before);
        }
        latest.put(group, report);
    }

    /** {@code group}'s items per second (see the class comment), or -1 before its first report. */
    synchronized double rate(String group) {
        StatsLine.Report now = latest.get(group);
        if (now == null) {
            return -1;
        }
        StatsLine.Report before = previous.get(group);
        if (now.last() || before == null) {
            return now.uptimeMs() <= 0 ? -1 : busiestItemsIn(now.stats()) * 1000.0 / now.uptimeMs();
        }
        long ms = now.uptimeMs() - before.uptimeMs();
        if (ms <= 0) {
            return -1;
        }
        return Math.max(0, busiestItemsIn(now.stats()) - busiestItemsIn(before.stats())) * 1000.0 / ms;
    }

    /** The latest statistics of every group that reported, final ones where the group ended. */
    synchronized Map<String, RunStats> latestStats() {
        Map<String, RunStats> stats = new LinkedHashMap<>();
        latest.forEach((group, report) -> stats.put(group, report.stats()));
        return stats;
    }

    /** Every group's latest report: its statistics and when it took them (ms since it started, its clock). */
    synchronized Map<String, StatsLine.Report> latestReports() {
        return new LinkedHashMap<>(latest);
    }

    /** The program's graph as the live page's {@code api/graph} JSON, or null before a group reported it. */
    synchronized String graphJson() {
        return graphJson;
    }

    /** {@code group}'s latest checkpoint counts, if it takes checkpoints and reported them. */
    synchronized Optional<CheckpointStats> checkpoints(String group) {
        StatsLine.Report report = latest.get(group);
        return report == null ? Optional.empty() : report.stats().checkpoints();
    }

    /** {@code group}'s final statistics, or null if it did not report them (it never ran, or was killed). */
    synchronized RunStats finalStats(String group) {
        StatsLine.Report report = latest.get(group);
        return report != null && report.last() ? report.stats() : null;
    }

    private static long busiestItemsIn(RunStats stats) {
        return stats.nodes().stream().mapToLong(NodeStats::itemsIn).max().orElse(0);
    }
}
