package org.fastflowj.core.runtime;

import org.fastflowj.core.spi.Sentinel;

/**
 * The {@link InputGate} of a node with one input (the common pipeline stage): no cursor, the channel's
 * index fixed when wired.
 *
 * <p>Threading: the node thread.
 */
final class SingleInput implements InputGate {
    private final RunnerState r;
    private final SpscChannel channel;

    SingleInput(RunnerState r, SpscChannel channel) {
        this.r = r;
        this.channel = channel;
    }

    @Override
    public Object next() throws Exception {
        final SpscChannel ch = channel;
        final InputChannels in = r.in;
        for (; ; ) {
            Object item = ch.taking() ? ch.poll() : null;
            if (item != null) {
                in.tookFrom(ch);
                if (!(item instanceof Sentinel)) {
                    return item;
                }
                in.control(ch, 0, item);
                if (r.runPhase != RunPhase.RUNNING) {
                    return null;
                }
            } else if (r.runPhase != RunPhase.RUNNING || r.waits.streamOver()) {
                return null;
            } else {
                in.nothingTaken();
            }
        }
    }
}
