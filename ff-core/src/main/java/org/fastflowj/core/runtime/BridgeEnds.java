package org.fastflowj.core.runtime;

import java.lang.invoke.VarHandle;
import org.fastflowj.core.spi.Sentinel;

/**
 * The part of a bridge's runner (ff-dist's senders and receivers) that the bridge reaches through {@link
 * BridgeContext}: ending one output, closing or holding one input, its own waits; and what the runner
 * tells the bridge: each idle round of a wait ({@link BridgeNode#inputIdle}), and inputs that ended
 * without an EOS it could take. Created only for a bridge, when the graph is wired, so an ordinary node's
 * runner carries none of this.
 *
 * <p>Threading: as {@link BridgeContext} says; the idle hook and the end checks run on the bridge's
 * thread.
 */
final class BridgeEnds implements BridgeContext, IdleHook {
    private final NodeRunner r;
    private final BridgeNode bridge;

    BridgeEnds(NodeRunner r, BridgeNode bridge) {
        this.r = r;
        this.bridge = bridge;
    }

    /** A bridge waits: tell it about ended inputs, and that it is idle (about to park or not). */
    @Override
    public void beforeIdleStep(boolean parksNext) throws Exception {
        notifyInputEnds();
        bridge.inputIdle(parksNext);
    }

    /**
     * Tells the bridge which inputs ended without an EOS it could take: a feedback input (they carry none)
     * whose producer is done, and a forward input the bridge closed (its remote consumer ended: the
     * producer then drops what it sends there, its EOS too). In both cases producer done is read first (its
     * last offer happened before, so an empty channel then stays empty) and nothing may be left. Each is
     * handled once: a forward one as an EOS (the bridge's eosNotify), a feedback one by feedbackInputEnded.
     */
    void notifyInputEnds() throws Exception {
        SpscChannel[] inputs = r.inputs;
        for (int i = 0; i < r.forwardInputs; i++) {
            SpscChannel ch = inputs[i];
            if (!ch.endTaken() && ch.consumerGone && ch.producerDone && !ch.hasItems()) {
                r.in.control(ch, i, Sentinel.EOS);
            }
        }
        for (int i = r.forwardInputs; i < inputs.length; i++) {
            SpscChannel ch = inputs[i];
            if (!ch.endTaken() && ch.producerDone && !ch.hasItems()) {
                ch.intake = SpscChannel.Intake.ENDED;
                bridge.feedbackInputEnded(i - r.forwardInputs);
            }
        }
    }

    @Override
    public void taskDone(int channel) {
        r.out.putControl(r.forwardOut[channel], Sentinel.TASK_DONE);
    }

    @Override
    public void endOutput(int channel, boolean feedback) {
        SpscChannel ch = feedback ? r.feedbackOut[channel] : r.forwardOut[channel];
        if (ch.outflow == SpscChannel.Outflow.ENDED) {
            return;
        }
        if (ch.outflow == SpscChannel.Outflow.OPEN) {
            ch.outflow = SpscChannel.Outflow.ENDED; // a gone channel stays gone
        }
        if (!feedback) {
            r.out.putControl(ch, Sentinel.EOS);
        }
        ch.producerDone = true;
        VarHandle.fullFence(); // producerDone before reading the consumer's park state, as in markEnded
        ch.consumer.wakeAnyway();
    }

    @Override
    public IdleStrategy newIdleStrategy() {
        return new IdleStrategy(r.idle);
    }

    @Override
    public void wakeWaitingNeighbours() {
        r.waits.wakeWhoeverNeedsIt();
    }

    @Override
    public boolean outputGone(int channel, boolean feedback) {
        return (feedback ? r.feedbackOut[channel] : r.forwardOut[channel]).consumerGone;
    }

    @Override
    public void closeInput(int channel, boolean feedback) {
        SpscChannel ch = r.inputs[feedback ? r.forwardInputs + channel : channel];
        ch.consumerGone = true;
        VarHandle.fullFence(); // consumerGone before reading the producer's park state, as in markEnded
        ch.producer.wakeAnyway();
    }

    @Override
    public void holdInput(int channel, boolean held) {
        r.checkOwnThread("holdInput");
        if (channel < 0 || channel >= r.forwardInputs) {
            throw new IndexOutOfBoundsException(
                    "holdInput: node " + r.name + " has " + r.forwardInputs + " forward input(s), not " + channel);
        }
        r.inputs[channel].hold(held);
    }

    @Override
    public int outputQueued(int channel, boolean feedback) {
        return (feedback ? r.feedbackOut[channel] : r.forwardOut[channel]).queue.size();
    }

    @Override
    public void fail(String phase, Throwable cause) {
        r.control.fail(r.name, phase, cause);
    }

    @Override
    public boolean cancelled() {
        return r.control.cancelled;
    }
}
