package org.fastflowj.core.runtime.node;

import org.fastflowj.core.spi.NodeContext;

/**
 * The context a node sees in {@code svcEnd}: its EOS has gone out, so sending is an error (final items
 * belong in {@code eosNotify}); the channel counts still answer.
 */
final class EndedContext implements NodeContext {
    private final NodeContext live;

    EndedContext(NodeContext live) {
        this.live = live;
    }

    private static IllegalStateException ended() {
        return new IllegalStateException("the node already sent its EOS: items cannot be sent from svcEnd"
                + " (send final items from eosNotify, which runs before the EOS)");
    }

    @Override
    public void emit(Object item) {
        throw ended();
    }

    @Override
    public void emitTo(Object item, int channel) {
        throw ended();
    }

    @Override
    public void emitFeedback(Object item, int channel) {
        throw ended();
    }

    @Override
    public void broadcast(Object item) {
        throw ended();
    }

    @Override
    public void requestEnd() {
        // already ended
    }

    @Override
    public int inputChannel() {
        return live.inputChannel();
    }

    @Override
    public void holdInput(int channel, boolean hold) {
        // ended: it reads nothing more
    }

    @Override
    public boolean fromFeedback() {
        return live.fromFeedback();
    }

    @Override
    public int inputChannels() {
        return live.inputChannels();
    }

    @Override
    public int feedbackInputChannels() {
        return live.feedbackInputChannels();
    }

    @Override
    public int outputChannels() {
        return live.outputChannels();
    }

    @Override
    public int feedbackOutputChannels() {
        return live.feedbackOutputChannels();
    }
}
