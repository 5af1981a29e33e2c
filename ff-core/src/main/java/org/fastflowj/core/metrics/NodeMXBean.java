package org.fastflowj.core.metrics;

/**
 * One node thread of a live run, as JConsole and JMX exporters see it. Every read takes a fresh snapshot
 * of the run's statistics; see {@link org.fastflowj.core.NodeStats} for what each value means.
 */
public interface NodeMXBean {
    String getName();

    long getItemsIn();

    long getItemsOut();

    long getBlockedInputNanos();

    long getBlockedOutputNanos();

    /** The CPU the thread is pinned to, or -1. */
    int getCpu();
}
