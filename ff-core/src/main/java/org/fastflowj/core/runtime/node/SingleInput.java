package org.fastflowj.core.runtime.node;

import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.spi.Sentinel;

/**
 * The {@link InputGate} of a node with one input (the common pipeline stage): no cursor, the channel's
 * index fixed when wired.
 *
 * <p>Threading: the node thread.
 */
public final class SingleInput implements InputGate {
    private final InputChannels in;
    private final SpscChannel channel;

    SingleInput(InputChannels in, SpscChannel channel) {
        this.in = in;
        this.channel = channel;
    }

    @Override
    public Object next() throws Exception {
        final SpscChannel ch = channel;
        final InputChannels in = this.in;
        for (; ; ) {
            Object item = ch.taking() ? ch.poll() : null;
            if (item != null) {
                in.tookFrom(ch);
                if (!(item instanceof Sentinel)) {
                    return item;
                }
                in.control(ch, 0, item);
                if (!in.running()) {
                    return null;
                }
            } else if (!in.running() || in.streamOver()) {
                return null;
            } else {
                in.nothingTaken();
            }
        }
    }
}
