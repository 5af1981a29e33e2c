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
