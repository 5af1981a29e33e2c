package org.fastflowj.core.spi;

/**
 * What a running node sees of its surroundings: where its outputs go and where its current input came
 * from. The executor gives one to each node thread; a {@link org.fastflowj.core.Combiner} gives its
 * first node one that feeds the second node in the same thread.
 *
 * <p>Threading: every method is called only by the thread that runs the node.
 */
public interface NodeContext {
    /** Sends an item by the node's default policy (round-robin or on-demand among its outputs). */
    void emit(Object item);

    /** Sends an item on forward output channel {@code channel}. */
    void emitTo(Object item, int channel);

    /** Sends an item on feedback output channel {@code channel} (never blocks: feedback is unbounded). */
    void emitFeedback(Object item, int channel);

    /** Sends the same item on every forward output channel. */
    void broadcast(Object item);

    /** Ends the node after the current call, as if {@code svc} had returned EOS. */
    void requestEnd();

    /** Index of the channel the current item came from, counted among channels of its kind. */
    int inputChannel();

    /**
     * Asks to read forward input {@code channel} only after the others ({@code hold}), or as usual again:
     * see {@link org.fastflowj.core.MultiInputNode#holdInput}.
     */
    void holdInput(int channel, boolean hold);

    /** Whether the current item came from a feedback channel. */
    boolean fromFeedback();

    /** Number of forward input channels. */
    int inputChannels();

    /** Number of feedback input channels. */
    int feedbackInputChannels();

    /** Number of forward output channels. */
    int outputChannels();

    /** Number of feedback output channels. */
    int feedbackOutputChannels();

    /** Whether the run is cancelled: a node's error policy lets the failure this causes end the node. */
    default boolean cancelled() {
        return false;
    }
}
