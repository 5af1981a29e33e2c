package org.fastflowj.core.runtime.node;

import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.runtime.control.RunControl;
import org.fastflowj.core.spi.Sentinel;

/**
 * The {@link InputGate} of an ordered farm's collector: it reads the workers in the order the emitter
 * recorded on the order channel, one task (up to its task mark) at a time. Once the emitter's order ends,
 * it hands the input side over to {@code after} for good, which takes what is left (EOS, fed-back items).
 *
 * <p>Threading: the node thread.
 */
public final class OrderedInputs implements InputGate {
    private final InputChannels in;
    private final RunControl control;
    private final SpscChannel order;
    private final InputGate after;

    OrderedInputs(InputChannels in, RunControl control, SpscChannel order, InputGate after) {
        this.in = in;
        this.control = control;
        this.order = order;
        this.after = after;
    }

    /** The channel the emitter records its order on. */
    SpscChannel orderChannel() {
        return order;
    }

    @Override
    public Object next() throws Exception {
        final InputChannels in = this.in;
        final SpscChannel order = this.order;
        for (; ; ) {
            control.checkCancelled();
            if (in.orderWorker < 0) {
                Object next = order.poll();
                if (next == null) {
                    in.awaitInput(order);
                    continue;
                }
                in.tookFrom(order);
                if (next == Sentinel.ORDER_END) {
                    in.handOver(after);
                    return after.next();
                }
                int worker = (Integer) next;
                if (in.inputs[worker].endTaken()) {
                    continue; // that worker ended early: its remaining tasks are gone
                }
                in.orderWorker = worker;
            }
            SpscChannel ch = in.inputs[in.orderWorker];
            Object item = ch.poll();
            if (item == null) {
                in.awaitInput(ch);
                continue;
            }
            in.tookFrom(ch);
            if (item == Sentinel.TASK_DONE) {
                in.orderWorker = -1;
            } else if (item == Sentinel.EOS) {
                in.control(ch, in.orderWorker, item);
                in.orderWorker = -1;
                if (!in.running()) {
                    return null;
                }
            } else {
                in.currentFeedback = false;
                in.currentChannel = in.orderWorker;
                return item;
            }
        }
    }
}
