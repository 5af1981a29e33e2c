package org.fastflowj.core;

import java.util.List;
import java.util.Optional;
import org.fastflowj.core.checkpoint.CheckpointStats;

/**
 * Per-node statistics of one run, in graph order; {@link #toTable()} prints them.
 *
 * @param nodes one entry per node thread
 * @param links one entry per network link (distributed groups only)
 * @param queues one entry per channel between two node threads, in graph order
 * @param checkpoints the run's checkpoints, if it takes some
 */
public record RunStats(
        List<NodeStats> nodes, List<LinkStats> links, List<QueueStats> queues, Optional<CheckpointStats> checkpoints) {
    public RunStats {
        nodes = List.copyOf(nodes);
        links = List.copyOf(links);
        queues = List.copyOf(queues);
        checkpoints = checkpoints == null ? Optional.empty() : checkpoints;
    }

    /** Statistics of a run without checkpoints. */
    public RunStats(List<NodeStats> nodes, List<LinkStats> links, List<QueueStats> queues) {
        this(nodes, links, queues, Optional.empty());
    }

    /** Statistics without channel fills (a group's report, which carries its counters only). */
    public RunStats(List<NodeStats> nodes, List<LinkStats> links) {
        this(nodes, links, List.of());
    }

    /** Statistics of a run with no network link. */
    public RunStats(List<NodeStats> nodes) {
        this(nodes, List.of(), List.of());
    }

    /** The node whose thread has this name. */
    public Optional<NodeStats> node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    /**
     * A fixed-width table: one row per node, times in milliseconds, and a last column of the nodes'
     * {@linkplain NodeStats#counters() counters} when some node has one ({@code skipped=3 late=1}).
     */
    public String toTable() {
        int width = "node".length();
        for (NodeStats n : nodes) {
            width = Math.max(width, n.name().length());
        }
        StringBuilder sb = new StringBuilder();
        String header = "%-" + width + "s %12s %12s %10s %12s %12s %4s%n";
        String row = "%-" + width + "s %12d %12d %10.1f %12.1f %12.1f %4s%n";
        boolean counted = nodes.stream().anyMatch(n -> !n.counters().isEmpty());
        sb.append(String.format(header, "node", "items in", "items out", "svc ms", "wait in ms", "wait out ms", "cpu"));
        if (counted) {
            sb.insert(sb.length() - System.lineSeparator().length(), "  counters");
        }
        for (NodeStats n : nodes) {
            sb.append(String.format(
                    row,
                    n.name(),
                    n.itemsIn(),
                    n.itemsOut(),
                    n.svcNanos() / 1e6,
                    n.blockedInputNanos() / 1e6,
                    n.blockedOutputNanos() / 1e6,
                    n.cpu() < 0 ? "-" : String.valueOf(n.cpu())));
            if (counted) {
                StringBuilder counts = new StringBuilder();
                n.counters()
                        .forEach((name, count) ->
                                counts.append(' ').append(name).append('=').append(count));
                sb.insert(sb.length() - System.lineSeparator().length(), counts.length() == 0 ? "  -" : " " + counts);
            }
        }
        if (!links.isEmpty()) {
            sb.append(String.format(
                    "%-16s %12s %14s %10s %16s%n", "link", "messages", "bytes", "batches", "credit wait ms"));
            for (LinkStats l : links) {
                sb.append(String.format(
                        "%-16s %12d %14d %10d %16.1f%n",
                        l.link(), l.messages(), l.bytes(), l.batches(), l.creditWaitNanos() / 1e6));
            }
        }
        return sb.toString();
    }
}
