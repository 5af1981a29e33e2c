package org.fastflowj.dist.run;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.LinkStats;
import org.fastflowj.dist.net.PeerLink;
import org.jctools.queues.SpscUnboundedArrayQueue;

/**
 * The receiving end of one connection (one peer group to this group): batches handed from the event
 * loop to the receiver node's thread, and acknowledgements and "consumer gone" notes going back.
 *
 * <p>Threading: the connection's one event loop thread offers batches, the receiver node's thread polls
 * them: a single-producer single-consumer queue, like every edge. It holds at most the sender's
 * {@code messageOTF} batches (credits), so it is bounded although its type is not. The receiver announces
 * a park in {@link #parked} (a volatile write, then it re-checks the queue); the event loop offers, issues a
 * full fence (the offer itself is only a release store, which a later load may pass), then reads the flag:
 * so either the receiver sees the batch or the event loop sees the flag and unparks it. The park has a
 * time-out besides (at most 1 ms).
 */
final class InboundLink {
    final String peer;
    final String description;
    private final SpscUnboundedArrayQueue<ByteBuf> batches = new SpscUnboundedArrayQueue<>(64);
    private volatile PeerLink link;
    private volatile Thread receiver;
    private volatile boolean parked;
    private volatile boolean done;
    private volatile String brokenReason;
    private volatile long bytes;
    private volatile long batchCount;
    private volatile long messages;

    InboundLink(String localGroup, String peer) {
        this.peer = peer;
        this.description = peer + " -> " + localGroup;
    }

    boolean isOpen() {
        return link != null;
    }

    PeerLink link() {
        return link;
    }

    // ---- receiver thread ----

    ByteBuf poll() {
        return batches.poll();
    }

    /** Whether a batch is queued (the next {@link #poll} returns one). */
    boolean hasBatch() {
        return !batches.isEmpty();
    }

    void receiverThread(Thread t) {
        receiver = t;
    }

    /** Parks up to {@code nanos} unless a batch is queued or the link broke. */
    void park(long nanos) {
        parked = true;
        if (batches.isEmpty() && brokenReason == null) {
            LockSupport.parkNanos(this, nanos);
        }
        parked = false;
    }

    /**
     * Acknowledges {@code count} batches: {@code payloadBytes} and {@code messageCount} messages in all
     * (the statistics count 5 header bytes per batch).
     */
    void ack(int count, long payloadBytes, long messageCount) {
        bytes += payloadBytes + 5L * count;
        batchCount += count;
        messages += messageCount;
        PeerLink l = link;
        l.send(Frames.ACK, l.alloc().buffer(4).writeInt(count));
    }

    /** The consumer of an on-demand edge took {@code count} more of its items. */
    void taken(int edgeId, int count) {
        PeerLink l = link;
        if (l != null) {
            l.send(Frames.TAKEN, l.alloc().buffer(8).writeInt(edgeId).writeInt(count));
        }
    }

    void gone(int edgeId) {
        PeerLink l = link;
        if (l != null) {
            l.send(Frames.GONE, l.alloc().buffer(4).writeInt(edgeId));
        }
    }

    /** Every edge of this link ended: a close by the peer is expected from now on. */
    void done() {
        done = true;
    }

    String brokenReason() {
        return brokenReason;
    }

    // ---- event loop ----

    void onOpen(PeerLink l) {
        link = l;
    }

    void onBatch(ByteBuf payload) {
        if (done) {
            payload.release(); // nothing can follow the last end mark; never expected
            return;
        }
        batches.offer(payload);
        VarHandle.fullFence(); // the offer before the read of parked: see the class comment
        if (parked) {
            LockSupport.unpark(receiver);
        }
    }

    /** The connection closed: expected only once every edge ended. Returns the failure, or null. */
    String onClosed(Throwable cause) {
        if (done) {
            return null;
        }
        String reason = "lost the connection from group " + peer + " at " + link.remoteAddress()
                + " before its stream ended" + (cause == null ? " (closed by the peer)" : ": " + cause.getMessage());
        brokenReason = reason;
        Thread r = receiver;
        if (r != null) {
            LockSupport.unpark(r);
        }
        return reason;
    }

    /** Releases batches nobody will read (the run failed). */
    void drop() {
        for (ByteBuf b = batches.poll(); b != null; b = batches.poll()) {
            b.release();
        }
    }

    LinkStats stats() {
        return new LinkStats(description, messages, bytes, batchCount, 0);
    }
}
