package org.fastflowj.core.runtime.node;

import org.fastflowj.core.runtime.channel.Chunk;

/**
 * Where a {@link NodeRunner} takes its next item: from its only input ({@link SingleInput}), one item
 * per channel in turn as FastFlow's gatherer ({@link RoundRobinInputs}), or in the order an ordered
 * farm's emitter recorded ({@link OrderedInputs}). Chosen once when the graph is wired.
 *
 * <p>Threading: the node thread.
 */
public interface InputGate {
    /**
     * The next user item, or a {@link Chunk} of them (the caller unrolls it; the runner's {@code
     * currentChannel} is its channel until the next call), or null when the stream is over for this node
     * or the node asked to end.
     */
    Object next() throws Exception;
}
