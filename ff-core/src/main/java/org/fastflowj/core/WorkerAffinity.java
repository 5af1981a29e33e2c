package org.fastflowj.core;

/**
 * Which set of an on-demand farm's workers an item would rather go to ({@link Farm#affinity}): those that
 * already hold its data, say. An item goes to a worker of its set when one of them has a free slot, and
 * otherwise waits for one, set aside so that the items behind it go on: other workers take it only when
 * nothing else is waiting for them, or when every worker of its set is gone. So a preference never leaves
 * a worker idle while items wait.
 *
 * <p>Threading: called by whichever thread hands the item out (the emitter, or a worker or network
 * bridge refilling its slot). It must read only what the item carried when the emitter sent it.
 */
@FunctionalInterface
public interface WorkerAffinity {
    /** The index of the set (among the farm's {@code workerSets}) {@code item} should rather go to, or -1. */
    int preferredSet(Object item);
}
