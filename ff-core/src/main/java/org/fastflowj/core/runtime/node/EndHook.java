package org.fastflowj.core.runtime.node;

import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.spi.Sentinel;

/**
 * What a node sends after its EOS went out on its forward outputs: nothing, or an ordered farm's
 * emitter's order end ({@link #orderEnd}), after which the collector reads its workers in turn. Chosen
 * when the graph is wired.
 *
 * <p>Threading: the node thread.
 */
@FunctionalInterface
public interface EndHook {
    EndHook NONE = out -> {};

    /** The EOS just went out through {@code out}. */
    void afterEos(OutputChannels out);

    /** An ordered farm's emitter's: the order's end, behind every record, on {@code orderChannel}. */
    static EndHook orderEnd(SpscChannel orderChannel) {
        return out -> out.putControl(orderChannel, Sentinel.ORDER_END);
    }
}
