package org.fastflowj.core;

import java.util.List;
import java.util.Optional;

/** Per-node statistics of one run, in graph order; {@link #toTable()} prints them. */
public record RunStats(List<NodeStats> nodes) {
    public RunStats {
        nodes = List.copyOf(nodes);
    }

    /** The node whose thread has this name. */
    public Optional<NodeStats> node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    /** A fixed-width table: one row per node, times in milliseconds. */
    public String toTable() {
        int width = "node".length();
        for (NodeStats n : nodes) {
            width = Math.max(width, n.name().length());
        }
        StringBuilder sb = new StringBuilder();
        String header = "%-" + width + "s %12s %12s %10s %12s %12s %4s%n";
        String row = "%-" + width + "s %12d %12d %10.1f %12.1f %12.1f %4s%n";
        sb.append(String.format(header, "node", "items in", "items out", "svc ms", "wait in ms", "wait out ms", "cpu"));
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
        }
        return sb.toString();
    }
}
