package org.fastflowj.core.runtime.node;

import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.spi.Sentinel;

/**
 * The {@link InputGate} of a node with several inputs: one item per channel in turn, as FastFlow's
 * gatherer; forward inputs first, then feedback ones.
 *
 * <p>Threading: the node thread.
 */
public final class RoundRobinInputs implements InputGate {
    private final InputChannels in;

    RoundRobinInputs(InputChannels in) {
        this.in = in;
    }

    @Override
    public Object next() throws Exception {
        final InputChannels self = in;
        final SpscChannel[] inputs = self.inputs;
        final int n = inputs.length;
        for (; ; ) {
            for (int k = 0; k < n; k++) {
                int i = self.cursor;
                self.cursor = i + 1 == n ? 0 : i + 1;
                SpscChannel ch = inputs[i];
                Object item = ch.taking() ? ch.poll() : null;
                if (item == null) {
                    continue;
                }
                self.tookFrom(ch);
                if (item instanceof Sentinel) {
                    self.control(ch, i, item);
                    if (!self.running()) {
                        return null;
                    }
                    continue;
                }
                boolean feedback = i >= self.forwardInputs;
                self.currentFeedback = feedback;
                self.currentChannel = feedback ? i - self.forwardInputs : i;
                return item; // (a Chunk too: the runner unrolls it, with currentChannel still its channel)
            }
            if (!self.running() || self.streamOver()) {
                return null;
            }
            self.nothingTaken();
        }
    }
}
