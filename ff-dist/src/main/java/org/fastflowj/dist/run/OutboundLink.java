package org.fastflowj.dist.run;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.runtime.BridgeContext;
import org.fastflowj.dist.net.PeerLink;

/**
 * The sending end of one connection (this group to one peer group): credit-based flow control, and
 * what comes back from the receiver (acknowledgements, consumers gone).
 *
 * <p>Credits: the sender may have {@code messageOTF} batches unacknowledged; the receiver acknowledges a
 * batch once its items are on local channels, so a slow consumer stops the sender after that many
 * batches and never grows anyone's heap.
 *
 * <p>Threading: {@link #send} and {@link #finish} on the sender node's thread; {@code on*} on the
 * connection's event loop. {@link #credits} is the one shared counter (the sender takes, the event loop
 * gives back); the sender parks when it has none, announcing itself in {@link #waiter} first and
 * re-checking, so an acknowledgement that races the park still wakes it.
 */
final class OutboundLink {
    final String peer;
    final String description;
    private final int maxCredits;
    private final AtomicInteger credits;
    private final int[] forwardEdges;
    private final int[] feedbackEdges;
    private volatile PeerLink link;
    private volatile BridgeContext context;
    private volatile Thread waiter;
    private volatile String brokenReason;
    private volatile boolean finished;
    /** The peer closed the connection cleanly: fine once every batch was acknowledged, else a failure. */
    private volatile boolean peerClosed;
    /** Sender thread only: every edge's end mark was written. */
    private boolean allEndsWritten;

    // statistics: written by the sender thread only, read after it ended (or approximately, while it runs)
    private volatile long messages;
    private volatile long bytes;
    private volatile long batches;
    private volatile long creditWaitNanos;

    OutboundLink(String localGroup, String peer, int maxCredits, int[] forwardEdges, int[] feedbackEdges) {
        this.peer = peer;
        this.description = localGroup + " -> " + peer;
        this.maxCredits = maxCredits;
        this.credits = new AtomicInteger(maxCredits);
        this.forwardEdges = forwardEdges;
        this.feedbackEdges = feedbackEdges;
    }

    void open(PeerLink link) {
        this.link = link;
    }

    PeerLink link() {
        return link;
    }

    void attach(BridgeContext ctx) {
        this.context = ctx;
    }

    /** Sends one batch of {@code count} messages, waiting for a credit first. Takes ownership of it. */
    void send(ByteBuf batch, int count) {
        if (!takeCredit()) {
            batch.release();
            throw cancelledOrBroken();
        }
        int size = batch.readableBytes();
        link.send(Frames.BATCH, batch);
        messages += count;
        bytes += size + 5;
        batches++;
    }

    private boolean takeCredit() {
        if (credits.get() > 0) {
            credits.decrementAndGet(); // only this thread takes, so the count cannot drop below zero meanwhile
            return true;
        }
        long start = System.nanoTime();
        waiter = Thread.currentThread();
        try {
            while (credits.get() <= 0) {
                if (brokenReason != null || peerClosed || context.cancelled()) {
                    return false;
                }
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
            }
            credits.decrementAndGet();
            return true;
        } finally {
            waiter = null;
            creditWaitNanos += System.nanoTime() - start;
        }
    }

    /** The sender wrote the end mark of its last edge (the batch holding it may not be sent yet). */
    void allEndsWritten() {
        allEndsWritten = true;
    }

    /** After the last batch: waits until every batch was acknowledged, then closes the connection. */
    void finish() {
        waiter = Thread.currentThread();
        try {
            while (credits.get() < maxCredits) {
                if (brokenReason != null || peerClosed || context.cancelled()) {
                    throw cancelledOrBroken();
                }
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
            }
        } finally {
            waiter = null;
        }
        finished = true;
        link.close();
    }

    /** Throws if the connection broke, or the peer closed it with edges still open (checked while idle). */
    void checkBroken() {
        if (brokenReason != null || (peerClosed && !allEndsWritten)) {
            throw cancelledOrBroken();
        }
    }

    private RuntimeException cancelledOrBroken() {
        if (brokenReason != null) {
            return new PeerLostException(brokenReason);
        }
        if (peerClosed) {
            return new PeerLostException("group " + peer + " at " + remote() + " closed the connection before it"
                    + " received everything this group sent it (did it end or fail on its own?)");
        }
        return new CancellationException("the run was cancelled");
    }

    // ---- event loop ----

    void onAck(int batchCount) {
        credits.addAndGet(batchCount);
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    void onGone(int edgeId) {
        BridgeContext ctx = context;
        if (ctx == null) {
            return;
        }
        for (int i = 0; i < forwardEdges.length; i++) {
            if (forwardEdges[i] == edgeId) {
                ctx.closeInput(i, false);
            }
        }
        for (int i = 0; i < feedbackEdges.length; i++) {
            if (feedbackEdges[i] == edgeId) {
                ctx.closeInput(i, true);
            }
        }
    }

    /**
     * The connection closed. A clean close is judged by the sender thread (its acknowledgements may still
     * be in this same read: the peer acknowledges its last batch and closes); a broken one fails now.
     * Returns the failure, or null.
     */
    String onClosed(Throwable cause) {
        if (finished) {
            return null;
        }
        if (cause == null) {
            peerClosed = true;
            Thread w = waiter;
            if (w != null) {
                LockSupport.unpark(w);
            }
            return null;
        }
        String reason = "lost the connection to group " + peer + " at " + remote() + " before it received"
                + " everything: " + cause.getMessage();
        brokenReason = reason;
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
        return reason;
    }

    private Object remote() {
        PeerLink l = link;
        return l == null ? "?" : l.remoteAddress();
    }

    LinkStats stats() {
        return new LinkStats(description, messages, bytes, batches, creditWaitNanos);
    }
}
