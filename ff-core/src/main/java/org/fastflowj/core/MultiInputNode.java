package org.fastflowj.core;

/**
 * A sequential node that reads several input channels and knows which one each item came from. Channels
 * are numbered by kind: forward inputs {@code 0..inputChannels()-1} (in the order of their producers:
 * farm worker index, all-to-all L-Worker index, ...) and, separately, feedback inputs
 * {@code 0..feedbackChannels()-1}. {@link #eosNotify(int)} is called once per forward channel; the node
 * ends after all of them ended (EOS never arrives on a feedback channel: the loop's head ends a loop).
 *
 * <p>Threading: as {@link Node}.
 */
public abstract class MultiInputNode<I, O> extends Node<I, O> {
    protected MultiInputNode() {}

    /** Index of the channel the current item came from, among channels of its kind. */
    protected final int inputChannel() {
        return context().inputChannel();
    }

    /**
     * Stops reading forward input {@code channel} until {@link #releaseInput}: its items wait in the channel
     * (and its producer, once the channel is full, waits too) while the node reads its other inputs, as
     * Flink's {@code InputSelectable} lets an operator choose. A wish, not a command: an input fed from
     * another group is never held, and when no other input is open (each held, ended or blocked for a
     * checkpoint) the holds are let go, so a hold never leaves the node with nothing to read. The node is
     * given the same items; only the order across its inputs changes.
     */
    protected final void holdInput(int channel) {
        context().holdInput(channel, true);
    }

    /** Reads forward input {@code channel} as usual again (a no-op when it is not held). */
    protected final void releaseInput(int channel) {
        context().holdInput(channel, false);
    }

    /** Whether the current item came from a feedback channel. */
    protected final boolean fromFeedback() {
        return context().fromFeedback();
    }

    /** Number of forward input channels. */
    protected final int inputChannels() {
        return context().inputChannels();
    }

    /** Number of feedback input channels. */
    protected final int feedbackChannels() {
        return context().feedbackInputChannels();
    }

    @Override
    public final boolean isMultiInput() {
        return true;
    }

    @Override
    void inputEnded(int channel, boolean last) throws Exception {
        eosNotify(channel);
    }
}
