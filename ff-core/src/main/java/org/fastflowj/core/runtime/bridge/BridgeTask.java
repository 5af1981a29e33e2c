package org.fastflowj.core.runtime.bridge;

import org.fastflowj.core.graph.EngineTask;
import org.fastflowj.core.runtime.channel.ChannelGathering;
import org.fastflowj.core.runtime.channel.IdleStrategy;
import org.fastflowj.core.runtime.channel.Parker;

/**
 * A task of the engine that joins a group's graph to something outside it (ff-dist's senders and
 * receivers, which stand for the other groups of a distributed program). It is no node: a {@link
 * BridgeRunner} runs it on its own platform thread, in the manner of an Agrona {@code Agent}, and it
 * reads and writes the engine's own channels through {@link BridgeChannels}: it drains its inputs
 * (items, ends, task marks and checkpoints' barriers come as explicit {@link
 * BridgeChannels.InputEvents}) and offers to its outputs, ending each one itself. Engine use only; not
 * for applications.
 *
 * <pre>
 *   init ─▶ doWork ─┬─ work &gt; 0 ─────────────────────────▶ doWork ...
 *                   └─ 0: onIdle(aboutToPark), idle step ─▶ doWork ...   until isDone, then close
 * </pre>
 *
 * <p>The idle step is the run's {@link IdleStrategy} on the runner's {@link Parker}, with the handshake
 * every node uses: the runner announces the park, re-checks {@link #workPending}, and parks (at most
 * {@link #maxParkNanos}); a producer of its inputs, or whoever it gave the runner's parker to ({@link
 * BridgeChannels#parker}), wakes it. A task that cannot go on (no credit, a full output) keeps what it
 * holds, returns 0 and lets the runner wait: the idle step waits for room on an output the task names
 * ({@link BridgeChannels#awaitRoomOn}), else for input and news. No method blocks.
 *
 * <p>Threading: every method on the bridge's thread. The runner does not end a bridge whose consumers are
 * all gone: the bridge decides (its peers must hear of it).
 */
public interface BridgeTask extends EngineTask {
    /** On the bridge's thread, before the first {@link #doWork}: its handle on its channels. */
    void init(BridgeChannels channels) throws Exception;

    /** One round of work; how much was done (0: nothing, the runner idles one step). */
    int doWork() throws Exception;

    /**
     * {@link #doWork} found nothing: called before each idle step. {@code aboutToPark}: the thread parks
     * in this step, so anything held back for batching should go now.
     */
    default void onIdle(boolean aboutToPark) throws Exception {}

    /**
     * The re-check after the park is announced: whether something it waits for arrived (the bridge then
     * does not park). Reads only what its wakers publish before they wake it.
     */
    boolean workPending();

    /** The longest park of the next idle step (a poll of something nobody signals). */
    default long maxParkNanos() {
        return Long.MAX_VALUE;
    }

    /** Whether the task is over: the runner then calls {@link #close} and ends. */
    boolean isDone();

    /** The end of a task that is done (not after a failure or cancellation): flush, wait for peers. */
    void close() throws Exception;

    /**
     * The end of a task after a failure or cancellation (instead of {@link #close}): release what it holds
     * for work it will not finish. Must not throw or wait.
     */
    default void abort() {}

    /**
     * Up to how many items the run-time may gather into one slot of this bridge's forward input channels
     * ({@link ChannelGathering}), when the bridge works per item anyway and may lag behind its producers; 0 or
     * 1: one item per slot. Gathering changes nothing the bridge sees: items, order and ends are the same.
     */
    default int inputChunkCapacity() {
        return 0;
    }
}
