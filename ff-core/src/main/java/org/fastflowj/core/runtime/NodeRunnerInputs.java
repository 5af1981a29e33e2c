package org.fastflowj.core.runtime;

import java.lang.invoke.VarHandle;
import org.fastflowj.core.graph.Vertex;

/**
 * The input side of a {@link NodeRunner}: the next item, taken one per channel in turn (FastFlow's
 * gatherer), or in the emitter's recorded order for an ordered farm's collector; end-of-stream per
 * channel; refilling on-demand slots; waking a producer parked for room.
 *
 * <p>Threading: the node thread is every input channel's only consumer; it reads the producer's park
 * state and end flag, written by the producer.
 */
abstract class NodeRunnerInputs extends NodeRunnerOutputs {
    NodeRunnerInputs(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest) {
        super(vertex, control, idle, cpuRequest);
    }

    /**
     * The next user item, or a {@link Chunk} of them (the caller unrolls it; {@code currentChannel} is
     * its channel until the next call), or null when the stream is over for this node.
     */
    final Object nextItem() throws Exception {
        if (orderRole == Vertex.OrderRole.COLLECT && !orderDrained) {
            return nextInOrder();
        }
        final SpscChannel[] in = inputs;
        final int n = in.length;
        if (n == 1) {
            return nextFromOnlyInput(in[0]);
        }
        for (; ; ) {
            for (int k = 0; k < n; k++) {
                int i = cursor;
                cursor = i + 1 == n ? 0 : i + 1; // one item per channel in turn, as FastFlow's gatherer
                SpscChannel ch = in[i];
                Object item = ch.taking() ? ch.poll() : null;
                if (item == null) {
                    continue;
                }
                tookFrom(ch);
                if (item instanceof Sentinel) {
                    control(ch, i, item);
                    if (endRequested) {
                        return null;
                    }
                    continue;
                }
                currentFeedback = i >= forwardInputs;
                currentChannel = currentFeedback ? i - forwardInputs : i;
                return item; // (a Chunk too: NodeRunner unrolls it, with currentChannel still its channel)
            }
            if (streamOver() || endRequested) {
                return null;
            }
            if (dispatchedInputs.length == 0 || !refillSlots()) {
                awaitInput(null);
            }
        }
    }

    /** {@link #nextItem()} for the common single-input node: no cursor, channel index fixed in wire(). */
    private Object nextFromOnlyInput(SpscChannel ch) throws Exception {
        for (; ; ) {
            Object item = ch.taking() ? ch.poll() : null;
            if (item != null) {
                tookFrom(ch);
                if (!(item instanceof Sentinel)) {
                    return item;
                }
                control(ch, 0, item);
                if (endRequested) {
                    return null;
                }
            } else if (streamOver() || endRequested) {
                return null;
            } else if (dispatchedInputs.length == 0 || !refillSlots()) {
                awaitInput(null); // (refilling an on-demand slot is not a wait: it is not timed)
            }
        }
    }

    /** Ordered farm collector: read workers in the order the emitter recorded, one task at a time. */
    private Object nextInOrder() throws Exception {
        for (; ; ) {
            control.checkCancelled();
            if (orderWorker < 0) {
                Object next = orderChannel.poll();
                if (next == null) {
                    awaitInput(orderChannel);
                    continue;
                }
                tookFrom(orderChannel);
                if (next == Sentinel.ORDER_END) {
                    orderDrained = true;
                    return nextItem();
                }
                int worker = (Integer) next;
                if (inputs[worker].endTaken()) {
                    continue; // that worker ended early: its remaining tasks are gone
                }
                orderWorker = worker;
            }
            SpscChannel ch = inputs[orderWorker];
            Object item = ch.poll();
            if (item == null) {
                awaitInput(ch);
                continue;
            }
            tookFrom(ch);
            if (item == Sentinel.TASK_DONE) {
                orderWorker = -1;
            } else if (item == Sentinel.EOS) {
                control(ch, orderWorker, item);
                orderWorker = -1;
                if (endRequested) {
                    return null;
                }
            } else {
                currentFeedback = false;
                currentChannel = orderWorker;
                return item;
            }
        }
    }

    private void control(SpscChannel ch, int index, Object signal) throws Exception {
        if (signal == Sentinel.EOS) {
            ch.intake = SpscChannel.Intake.ENDED;
            if (index < forwardInputs) {
                liveForward--;
                phase = "eosNotify";
                access.inputEnded(node, index, liveForward == 0);
                phase = "svc";
            }
        } else if (signal == Sentinel.TASK_DONE) {
            if (orderRole == Vertex.OrderRole.PASS_MARKS) {
                sendMarks();
            } else if (bridge != null && index < forwardInputs) {
                bridge.taskDone(index); // a remote collector's mark: it crosses in line with the items
            }
        }
    }

    /**
     * After a poll: wake the producer if it parked on this channel. A producer parks until half the
     * channel drained, so on a long channel looking every 16 items is soon enough, and keeps the
     * volatile read off most items; a short (on-demand) channel is looked at every time.
     */
    private void tookFrom(SpscChannel ch) {
        int n = ++sinceFence;
        if ((n & 15) == 0 || ch.limit <= IdlePolicy.SHORT_CHANNEL) {
            if ((n & 63) == 0) {
                VarHandle.fullFence(); // bounds the missed-wake-up race, see Parker
            }
            Parker producer = ch.producer;
            if (waitsForRoom(producer.state)) {
                producer.wakeForRoom(ch);
            }
        }
    }

    /** A bridge waits: tell it about ended inputs, and that it is idle (about to park or not). */
    private void bridgeIdle() throws Exception {
        notifyBridgeInputEnds();
        bridge.inputIdle(inputIdler.parksNext());
    }

    /**
     * Tells a bridge which inputs ended without an EOS it could take: a feedback input (they carry none)
     * whose producer is done, and a forward input the bridge closed (its remote consumer ended: the
     * producer then drops what it sends there, its EOS too). In both cases producer done is read first (its
     * last offer happened before, so an empty channel then stays empty) and nothing may be left. Each is
     * handled once: a forward one as an EOS (the bridge's eosNotify), a feedback one by feedbackInputEnded.
     */
    final void notifyBridgeInputEnds() throws Exception {
        for (int i = 0; i < forwardInputs; i++) {
            SpscChannel ch = inputs[i];
            if (!ch.endTaken() && ch.consumerGone && ch.producerDone && !ch.hasItems()) {
                control(ch, i, Sentinel.EOS);
            }
        }
        for (int i = forwardInputs; i < inputs.length; i++) {
            SpscChannel ch = inputs[i];
            if (!ch.endTaken() && ch.producerDone && !ch.hasItems()) {
                ch.intake = SpscChannel.Intake.ENDED;
                bridge.feedbackInputEnded(i - forwardInputs);
            }
        }
    }

    /** Runs the dispatch of every empty on-demand input; true if that placed anything anywhere. */
    private boolean refillSlots() {
        boolean placed = false;
        for (SpscChannel ch : dispatchedInputs) {
            if (ch.taking() && !ch.hasItems()) {
                placed |= ch.dispatch.run(this);
            }
        }
        return placed;
    }

    private void awaitInput(SpscChannel target) throws Exception {
        long start = System.nanoTime();
        inputIdler.reset();
        while (!inputReady(target)) {
            control.checkCancelled();
            if (bridge != null) {
                bridgeIdle();
            }
            if (target == null && dispatchedInputs.length > 0 && refillSlots()) {
                continue;
            }
            pause(WAIT_INPUT, target);
        }
        blockedInNanos += System.nanoTime() - start;
    }
}
