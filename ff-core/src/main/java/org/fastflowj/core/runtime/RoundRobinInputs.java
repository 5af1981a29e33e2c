package org.fastflowj.core.runtime;

import org.fastflowj.core.spi.Sentinel;

/**
 * The {@link InputGate} of a node with several inputs: one item per channel in turn, as FastFlow's
 * gatherer; forward inputs first, then feedback ones.
 *
 * <p>Threading: the node thread.
 */
final class RoundRobinInputs implements InputGate {
    private final RunnerState r;

    RoundRobinInputs(RunnerState r) {
        this.r = r;
    }

    @Override
    public Object next() throws Exception {
        final RunnerState self = r;
        final SpscChannel[] in = self.inputs;
        final int n = in.length;
        for (; ; ) {
            for (int k = 0; k < n; k++) {
                int i = self.cursor;
                self.cursor = i + 1 == n ? 0 : i + 1;
                SpscChannel ch = in[i];
                Object item = ch.taking() ? ch.poll() : null;
                if (item == null) {
                    continue;
                }
                self.in.tookFrom(ch);
                if (item instanceof Sentinel) {
                    self.in.control(ch, i, item);
                    if (self.runPhase != RunPhase.RUNNING) {
                        return null;
                    }
                    continue;
                }
                boolean feedback = i >= self.forwardInputs;
                self.currentFeedback = feedback;
                self.currentChannel = feedback ? i - self.forwardInputs : i;
                return item; // (a Chunk too: the runner unrolls it, with currentChannel still its channel)
            }
            if (self.runPhase != RunPhase.RUNNING || self.waits.streamOver()) {
                return null;
            }
            self.in.nothingTaken();
        }
    }
}
