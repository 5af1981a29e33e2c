package org.fastflowj.core;

/**
 * A sequential node that chooses its output channels. Forward outputs and feedback outputs are numbered
 * separately, each from 0 ({@link #sendOutTo} and {@link #sendFeedbackTo}), so a node never computes
 * "feedback channels come first" offsets. {@link #sendOut} and the value {@code svc} returns still go by
 * the default policy (round-robin or on-demand) among the forward outputs, or among the feedback outputs
 * when the node has no forward one (the last level of a wrapped-around block).
 *
 * <p>Threading: as {@link Node}.
 */
public abstract class MultiOutputNode<I, O> extends Node<I, O> {
    protected MultiOutputNode() {}

    /** Sends {@code item} on forward channel {@code channel}, waiting while that channel is full. */
    protected final void sendOutTo(O item, int channel) {
        context().emitTo(checked(item), channel);
    }

    /** Sends {@code item} back on feedback channel {@code channel}; never waits (feedback is unbounded). */
    protected final void sendFeedbackTo(Object item, int channel) {
        context().emitFeedback(checked(item), channel);
    }

    /** Sends the same {@code item} on every forward channel. */
    protected final void broadcast(O item) {
        context().broadcast(checked(item));
    }

    /** Number of forward output channels. */
    protected final int outputChannels() {
        return context().outputChannels();
    }

    /** Number of feedback output channels. */
    protected final int feedbackChannels() {
        return context().feedbackOutputChannels();
    }

    @Override
    public final boolean isMultiOutput() {
        return true;
    }

    private static <T> T checked(T item) {
        if (item == null || org.fastflowj.core.spi.Sentinel.isSentinel(item)) {
            throw new IllegalArgumentException(
                    "cannot send " + item + " to a chosen channel: send items; end with eos() from svc");
        }
        return item;
    }
}
