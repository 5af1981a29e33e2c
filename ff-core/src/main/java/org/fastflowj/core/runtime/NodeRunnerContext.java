package org.fastflowj.core.runtime;

import java.lang.invoke.VarHandle;
import org.fastflowj.core.graph.Vertex;

/**
 * What the running node sees of its runner ({@link NodeContext}): the send calls of {@code sendOut},
 * {@code sendOutTo}, {@code sendFeedbackTo} and {@code broadcast}, ending early, and where the current
 * item came from. Sending is refused from any thread but the node's own, since every channel has a
 * single producer.
 *
 * <p>Threading: the node thread only (a call from another thread fails the run).
 */
abstract class NodeRunnerContext extends NodeRunnerInputs implements NodeContext, BridgeContext {
    NodeRunnerContext(Vertex vertex, RunControl control, IdlePolicy idle, int cpuRequest) {
        super(vertex, control, idle, cpuRequest);
    }

    @Override
    public void emit(Object item) {
        checkOwnThread("sendOut");
        emitResult(item);
    }

    /**
     * A channel has one producer: the node's thread. Sending from another thread (a callback, a pool
     * inside svc) would corrupt the SPSC queue silently, so it is refused loudly instead.
     */
    private void checkOwnThread(String call) {
        if (Thread.currentThread() != ownThread) {
            refuseForeignThread(call);
        }
    }

    /** The misuse also fails the run, so that a callback swallowing the exception cannot hide it. */
    private void refuseForeignThread(String call) {
        IllegalStateException misuse = new IllegalStateException(call + " on node " + name + " from thread "
                + Thread.currentThread().getName() + ": a node sends only from its own thread"
                + " (in svcInit, svc or eosNotify), its channels are single-producer");
        control.fail(name, call + " from another thread", misuse);
        throw misuse;
    }

    private SpscChannel forwardChannel(int channel, String call) {
        if (channel < 0 || channel >= forwardOut.length) {
            throw new IndexOutOfBoundsException(call + ": channel " + channel + " does not exist; node " + name
                    + " has " + forwardOut.length + " forward output channel(s)");
        }
        return forwardOut[channel];
    }

    @Override
    public void emitTo(Object item, int channel) {
        checkOwnThread("sendOutTo");
        put(forwardChannel(channel, "sendOutTo"), filtered(item), channel);
    }

    @Override
    public void emitFeedback(Object item, int channel) {
        checkOwnThread("sendFeedbackTo");
        if (channel < 0 || channel >= feedbackOut.length) {
            throw new IndexOutOfBoundsException("sendFeedbackTo: channel " + channel + " does not exist; node " + name
                    + " has " + feedbackOut.length + " feedback output channel(s)");
        }
        put(feedbackOut[channel], filtered(item), -1);
    }

    private Object filtered(Object item) {
        return itemFilter == null ? item : itemFilter.apply(item);
    }

    @Override
    public void broadcast(Object item) {
        checkOwnThread("broadcast");
        for (int i = 0; i < forwardOut.length; i++) {
            put(forwardOut[i], filtered(item), i);
        }
    }

    /**
     * {@code sendOut(eos())}. A plain node ends after the current call. A loop head (a node with
     * feedback inputs) does what FastFlow's "send EOS and keep listening" idiom does: EOS goes out on its
     * forward outputs now, its forward inputs are closed, and it goes on taking fed-back items, so the
     * results still in flight in the loop reach it; it ends once every feedback producer has ended.
     * (Returning {@code eos()} from {@code svc} ends even a loop head at once.)
     */
    @Override
    public void requestEnd() {
        if (inputs.length == forwardInputs) {
            endRequested = true;
            return;
        }
        if (forwardEnded) {
            return;
        }
        sendEos();
        for (int i = 0; i < forwardInputs; i++) {
            SpscChannel ch = inputs[i];
            ch.intake = SpscChannel.Intake.ENDED; // no eosNotify: the node chose to end its stream
            ch.consumerGone = true;
        }
        liveForward = 0;
        VarHandle.fullFence();
        for (int i = 0; i < forwardInputs; i++) {
            inputs[i].producer.wakeAnyway();
        }
    }

    // ---- BridgeContext: only bridge nodes (ff-dist) reach these ----

    @Override
    public void endOutput(int channel, boolean feedback) {
        SpscChannel ch = feedback ? feedbackOut[channel] : forwardOut[channel];
        if (ch.outflow == SpscChannel.Outflow.ENDED) {
            return;
        }
        if (ch.outflow == SpscChannel.Outflow.OPEN) {
            ch.outflow = SpscChannel.Outflow.ENDED; // a gone channel stays gone
        }
        if (!feedback) {
            putControl(ch, Sentinel.EOS);
        }
        ch.producerDone = true;
        VarHandle.fullFence(); // producerDone before reading the consumer's park state, as in markEnded
        ch.consumer.wakeAnyway();
    }

    @Override
    public void taskDone(int channel) {
        putControl(forwardOut[channel], Sentinel.TASK_DONE);
    }

    @Override
    public IdleStrategy newIdleStrategy() {
        return new IdleStrategy(idle);
    }

    @Override
    public void wakeWaitingNeighbours() {
        wakeWhoeverNeedsIt();
    }

    @Override
    public boolean outputGone(int channel, boolean feedback) {
        return (feedback ? feedbackOut[channel] : forwardOut[channel]).consumerGone;
    }

    @Override
    public void closeInput(int channel, boolean feedback) {
        SpscChannel ch = inputs[feedback ? forwardInputs + channel : channel];
        ch.consumerGone = true;
        VarHandle.fullFence(); // consumerGone before reading the producer's park state, as in markEnded
        ch.producer.wakeAnyway();
    }

    @Override
    public void holdInput(int channel, boolean held) {
        checkOwnThread("holdInput");
        if (channel < 0 || channel >= forwardInputs) {
            throw new IndexOutOfBoundsException(
                    "holdInput: node " + name + " has " + forwardInputs + " forward input(s), not " + channel);
        }
        inputs[channel].hold(held);
    }

    @Override
    public int outputQueued(int channel, boolean feedback) {
        return (feedback ? feedbackOut[channel] : forwardOut[channel]).queue.size();
    }

    @Override
    public void fail(String phase, Throwable cause) {
        control.fail(name, phase, cause);
    }

    @Override
    public boolean cancelled() {
        return control.cancelled;
    }

    @Override
    public int inputChannel() {
        return currentChannel;
    }

    @Override
    public boolean fromFeedback() {
        return currentFeedback;
    }

    @Override
    public int inputChannels() {
        return forwardInputs;
    }

    @Override
    public int feedbackInputChannels() {
        return inputs.length - forwardInputs;
    }

    @Override
    public int outputChannels() {
        return forwardOut.length;
    }

    @Override
    public int feedbackOutputChannels() {
        return feedbackOut.length;
    }
}
