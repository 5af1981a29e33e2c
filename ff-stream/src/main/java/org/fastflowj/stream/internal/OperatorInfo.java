package org.fastflowj.stream.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import org.fastflowj.core.NodeCounter;

/** What an operator instance knows of itself: its name, its index among its instances, its counters. */
public record OperatorInfo(String name, int instance, int instances, Counters counters) {
    /**
     * Counts of the rare paths (late records, skipped and dead-lettered records) of one operator instance,
     * counted by its node's thread: the node declares those that apply to it, which shows them with its
     * statistics, on the live page and at {@code /metrics}; the job's totals add up the instances'.
     * {@code started}: the instance started in this process (run as one group of several, a process runs
     * only its group's instances).
     */
    public record Counters(NodeCounter late, NodeCounter skipped, NodeCounter deadLettered, AtomicBoolean started) {
        public Counters() {
            this(
                    new NodeCounter("late"),
                    new NodeCounter("skipped"),
                    new NodeCounter("dead-lettered"),
                    new AtomicBoolean());
        }
    }

    public String qualifiedName() {
        return instances == 1 ? "'" + name + "'" : "'" + name + "' (instance " + instance + " of " + instances + ")";
    }
}
