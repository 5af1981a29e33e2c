package org.fastflowj.core.runtime.node;

import org.fastflowj.core.runtime.channel.SpscChannel;

/**
 * A node's forward outputs as a whole: open, or ended because its EOS went out (at the node's end, or
 * early by a loop head's {@code sendOut(eos())}, which then still sends fed-back items on). Each channel
 * keeps its own {@link SpscChannel.Outflow} besides.
 *
 * <p>Threading: the node thread's own.
 */
public enum OutputSide {
    /** Items may be sent forward. */
    OPEN,
    /** EOS went out on every forward output: sending forward is an error. Final. */
    EOS_SENT
}
