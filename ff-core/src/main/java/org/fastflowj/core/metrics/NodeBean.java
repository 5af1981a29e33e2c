package org.fastflowj.core.metrics;

import java.util.function.Supplier;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.RunStats;

/** The MBean of the node at one index of the run's statistics (graph order does not change in a run). */
final class NodeBean implements NodeMXBean {
    private final Supplier<RunStats> stats;
    private final int index;
    private final String name;

    NodeBean(Supplier<RunStats> stats, int index, String name) {
        this.stats = stats;
        this.index = index;
        this.name = name;
    }

    private NodeStats now() {
        return stats.get().nodes().get(index);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public long getItemsIn() {
        return now().itemsIn();
    }

    @Override
    public long getItemsOut() {
        return now().itemsOut();
    }

    @Override
    public long getBlockedInputNanos() {
        return now().blockedInputNanos();
    }

    @Override
    public long getBlockedOutputNanos() {
        return now().blockedOutputNanos();
    }

    @Override
    public int getCpu() {
        return now().cpu();
    }
}
