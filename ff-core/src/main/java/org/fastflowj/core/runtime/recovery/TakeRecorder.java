package org.fastflowj.core.runtime.recovery;

/**
 * Hears, in order, every item a node takes from its forward inputs (ff-dist: the first node of a recoverable
 * all-to-all's remote R-Worker, whose outputs must name the item they answer). Given to the run by
 * {@link RecoveryHooks#takeRecorderFor}; a node without one pays nothing per item (its input gate is the
 * plain one).
 *
 * <p>Threading: called on the node's thread only, before the node's {@code svc} sees the items, so what the
 * recorder writes (with release semantics) is visible to any thread that sees the node's outputs for them.
 */
public interface TakeRecorder {
    /** The node took {@code items} items (more than one: a chunk from a bridge) from forward input {@code channel}. */
    void took(int channel, int items);
}
