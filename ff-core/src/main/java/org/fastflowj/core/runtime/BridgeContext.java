package org.fastflowj.core.runtime;

/**
 * What a {@link BridgeNode} can do to its channels beyond what a node can: end one output at a time
 * (a remote producer ended), close one input (a remote consumer ended), fail the run from any thread.
 *
 * <p>Threading: {@link #closeInput}, {@link #fail} and {@link #cancelled} from any thread; the rest on the
 * bridge node's thread only (so {@code held} is a plain field of the channel's consumer).
 */
public interface BridgeContext {
    /**
     * The producer behind this output ended: a forward channel gets its EOS now (after what was sent on it),
     * a feedback channel is marked done; the node's own end later skips it.
     */
    void endOutput(int channel, boolean feedback);

    /**
     * Puts an ordered farm's per-task mark on forward output {@code channel}, after the items sent there
     * so far: a remote worker finished a task, and those items were its outputs. Waits for room like an
     * item; dropped if the consumer ended.
     */
    void taskDone(int channel);

    /**
     * Before a bridge waits on something of its own (not on its channels, where the run-time does this):
     * wakes the consumers of its outputs that parked with items waiting, and the producers of its inputs
     * that parked for room, as the run-time does before any node parks. Without it a consumer that parked
     * before a few items came waits out its park time-out for them.
     */
    void wakeWaitingNeighbours();

    /** Whether the consumer of this output ended (items sent there are dropped). */
    boolean outputGone(int channel, boolean feedback);

    /** The consumer behind this input ended: its producer stops sending (and may end early). Any thread. */
    void closeInput(int channel, boolean feedback);

    /**
     * Holds a forward input, or lets it go: while held the run-time takes nothing from it (nor its EOS), so
     * its producer finds it full. A bridge holds an on-demand input while the remote worker behind it has as
     * many items as its slots: the producer's dispatch then picks another worker, as it skips a busy one in
     * one process. A held input with items does not keep the node awake: the bridge is told of idle time
     * ({@link BridgeNode#inputIdle}) as with no items, and lets the input go there or in {@code svc}.
     */
    void holdInput(int channel, boolean held);

    /**
     * Items (or chunks) put on this output that its consumer has not taken yet. The bridge puts items of an
     * on-demand edge there one by one and learns from this how many the worker took.
     */
    int outputQueued(int channel, boolean feedback);

    /** Fails the run, naming this node; the first failure of a run wins. Any thread. */
    void fail(String phase, Throwable cause);

    /** Whether the run failed or was cancelled. Any thread. */
    boolean cancelled();

    /**
     * A new idle strategy of the run's {@link org.fastflowj.core.WaitStrategy}, for a wait of the bridge's
     * own (on its link, for credits): one per waiting thread.
     */
    default IdleStrategy newIdleStrategy() {
        return IdleStrategy.of(org.fastflowj.core.WaitStrategy.BACKOFF);
    }
}
