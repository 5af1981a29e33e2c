package org.fastflowj.core.runtime;

import org.fastflowj.core.spi.Sentinel;

/**
 * The {@link InputGate} of an ordered farm's collector: it reads the workers in the order the emitter
 * recorded on the order channel, one task (up to its task mark) at a time. Once the emitter's order ends,
 * it hands the runner over to {@code after} for good, which takes what is left (EOS, fed-back items).
 *
 * <p>Threading: the node thread.
 */
final class OrderedInputs implements InputGate {
    private final RunnerState r;
    private final InputGate after;

    OrderedInputs(RunnerState r, InputGate after) {
        this.r = r;
        this.after = after;
    }

    @Override
    public Object next() throws Exception {
        final RunnerState self = r;
        final SpscChannel order = self.orderChannel;
        final InputChannels in = self.in;
        for (; ; ) {
            self.control.checkCancelled();
            if (self.orderWorker < 0) {
                Object next = order.poll();
                if (next == null) {
                    in.awaitInput(order);
                    continue;
                }
                in.tookFrom(order);
                if (next == Sentinel.ORDER_END) {
                    self.gate = after;
                    return after.next();
                }
                int worker = (Integer) next;
                if (self.inputs[worker].endTaken()) {
                    continue; // that worker ended early: its remaining tasks are gone
                }
                self.orderWorker = worker;
            }
            SpscChannel ch = self.inputs[self.orderWorker];
            Object item = ch.poll();
            if (item == null) {
                in.awaitInput(ch);
                continue;
            }
            in.tookFrom(ch);
            if (item == Sentinel.TASK_DONE) {
                self.orderWorker = -1;
            } else if (item == Sentinel.EOS) {
                in.control(ch, self.orderWorker, item);
                self.orderWorker = -1;
                if (self.runPhase != RunPhase.RUNNING) {
                    return null;
                }
            } else {
                self.currentFeedback = false;
                self.currentChannel = self.orderWorker;
                return item;
            }
        }
    }
}
