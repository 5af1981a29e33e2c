package org.fastflowj.core.runtime;

/**
 * A node that joins its graph to something outside it (ff-dist's senders and receivers, which stand for
 * the other groups of a distributed program). The run-time treats it as any node, plus these calls, and
 * it does not end a bridge whose consumers are all gone: the bridge decides (its peers must hear of it).
 * Engine use only; not for applications.
 *
 * <p>Threading: every method is called on the bridge node's own thread.
 */
public interface BridgeNode extends org.fastflowj.core.graph.EngineTask {
    /** Before {@code svcInit}: the bridge's handle on its channels. */
    void attach(BridgeContext context);

    /**
     * The node waits for input; called on every wait round. {@code aboutToPark}: the thread is about to
     * park (up to the wait policy's park time), so anything held back for batching should go now.
     */
    default void inputIdle(boolean aboutToPark) throws Exception {}

    /**
     * Up to how many items the run-time may gather into one slot of this bridge's forward input channels
     * ({@link ChannelGathering}), when the bridge works per item anyway and may lag behind its producers; 0 or
     * 1: one item per slot. Gathering changes nothing the bridge sees: items, order and ends are the same.
     */
    default int inputChunkCapacity() {
        return 0;
    }

    /**
     * Forward input {@code channel} carried an ordered farm's per-task mark: its producer, a worker whose
     * collector runs in another group, finished a task, and the items before the mark were that task's
     * outputs. The bridge passes the mark on in line with the items, so the remote collector can restore
     * the order ({@link BridgeContext#taskDone} on the other side).
     */
    default void taskDone(int channel) throws Exception {}

    /** Feedback input {@code channel}'s producer ended and everything it sent was taken. */
    default void feedbackInputEnded(int channel) throws Exception {}
}
