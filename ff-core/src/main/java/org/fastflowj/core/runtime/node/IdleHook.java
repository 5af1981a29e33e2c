package org.fastflowj.core.runtime.node;

/**
 * What a node thread does on each round of a wait for input, before its idle step: nothing for most
 * nodes; a recoverable farm's emitter sends lost items again ({@link Redeliverer}).
 *
 * <p>Threading: the node thread.
 */
public interface IdleHook {
    /** An ordinary node's: nothing. */
    IdleHook NONE = parksNext -> {};

    /** One round of a wait; {@code parksNext}: the thread parks in this round. */
    void beforeIdleStep(boolean parksNext) throws Exception;
}
