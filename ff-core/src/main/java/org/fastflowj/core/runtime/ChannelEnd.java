package org.fastflowj.core.runtime;

import org.fastflowj.core.NodeStats;

/**
 * A thread at an end of {@link SpscChannel}s: a node's {@link NodeRunner} or a bridge's {@link
 * BridgeRunner}. The thread at a channel's other end reads its park state and wakes it through this
 * {@link Parker}; the executor starts it, names its thread, interrupts it on cancellation and reads its
 * statistics.
 *
 * <p>Threading: {@link #run} on its own thread; {@link #stats} from any thread (the counters are plain
 * fields of that thread, exact once it ended).
 */
abstract class ChannelEnd extends ParkerPadAfter implements Runnable {
    /** The vertex's name, which its thread takes. */
    final String name;
    /** Its thread's run, set by the executor before any runner starts: what cancellation interrupts. */
    volatile NodeThreads.Run threadRun;

    ChannelEnd(String name) {
        this.name = name;
    }

    /** Its input channels (forward first, then feedback), once wired. */
    abstract SpscChannel[] inputs();

    /** Whether what it sends may be {@link Chunk}s, which the consumer unrolls. */
    abstract boolean sendsChunks();

    abstract NodeStats stats();
}
