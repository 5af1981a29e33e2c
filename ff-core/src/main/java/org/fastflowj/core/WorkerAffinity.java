package org.fastflowj.core;

/**
 * Which workers of an on-demand farm an item would rather go to ({@link Farm#affinity}): those that
 * already hold its data, say. The farm still hands items out on demand: an item goes to one of its
 * preferred workers when one of them has a free slot, and otherwise, as without a preference, to any
 * worker with a free slot; so a preference never holds an item back and never leaves a worker idle
 * while items wait.
 *
 * <p>Threading: called by whichever thread hands the item out (the emitter, or a worker or network
 * bridge refilling its slot), each time that thread tries to place it. It must read only what the item
 * carried when the emitter sent it, and return an array nobody changes afterwards (one array per group
 * of workers, made once, is the usual answer): nothing is allocated per item.
 */
@FunctionalInterface
public interface WorkerAffinity {
    /**
     * The indices of the workers {@code item} should rather go to (worker {@code i} of the farm, in the
     * order given to {@link Farm#of}), tried in turn; null or empty for no preference.
     */
    int[] preferredWorkers(Object item);
}
