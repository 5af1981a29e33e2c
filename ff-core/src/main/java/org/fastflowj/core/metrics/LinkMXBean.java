package org.fastflowj.core.metrics;

/**
 * One network link of a live distributed group (one direction of one connection). Every read takes a
 * fresh snapshot; see {@link org.fastflowj.core.LinkStats} for what each value means.
 */
public interface LinkMXBean {
    String getName();

    long getMessages();

    long getBytes();

    long getBatches();

    long getCreditWaitNanos();
}
