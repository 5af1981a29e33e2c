package org.fastflowj.core.metrics;

import java.util.function.Supplier;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.RunStats;

/** The MBean of the link at one index of the run's statistics (a group's links are fixed when it starts). */
final class LinkBean implements LinkMXBean {
    private final Supplier<RunStats> stats;
    private final int index;
    private final String name;

    LinkBean(Supplier<RunStats> stats, int index, String name) {
        this.stats = stats;
        this.index = index;
        this.name = name;
    }

    private LinkStats now() {
        return stats.get().links().get(index);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public long getMessages() {
        return now().messages();
    }

    @Override
    public long getBytes() {
        return now().bytes();
    }

    @Override
    public long getBatches() {
        return now().batches();
    }

    @Override
    public long getCreditWaitNanos() {
        return now().creditWaitNanos();
    }
}
