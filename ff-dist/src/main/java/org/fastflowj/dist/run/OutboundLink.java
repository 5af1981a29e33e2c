package org.fastflowj.dist.run;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.runtime.BridgeChannels;
import org.fastflowj.core.runtime.IdleStrategy;
import org.fastflowj.core.runtime.Parker;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.net.PeerLink;

/**
 * The sending end of one connection (this group to one peer group): credit-based flow control, and
 * what comes back from the receiver (acknowledgements, consumers gone).
 *
 * <p>Credits: the sender may have {@code messageOTF} batches unacknowledged, and sends the next batch
 * only while those hold less than {@link #maxBytesInFlight} bytes (the receiving group's {@code
 * maxBufferedBytesPerLink}): the window is in batches and in bytes. The receiver acknowledges a batch once
 * its items are on local channels, so a slow consumer stops the sender after that many batches or bytes
 * and never grows anyone's heap: what one connection has in flight is at most {@code min(messageOTF x
 * the largest batch, maxBytesInFlight + the largest batch)}. Small batches meet the batch bound, large
 * ones the byte bound; a batch larger than the whole byte window still goes, alone.
 *
 * <p>Threading: {@link #send} and {@link #finish} on the sender's thread; {@code on*} on the
 * connection's event loop. {@link #credits} and {@link #bytesInFlight} are the shared counters (the
 * sender takes, the event loop gives back, both before it wakes the sender); the sender parks on {@link
 * #creditParker} when the window is closed (the run-time's handshake: it announces the park and
 * re-checks), so an acknowledgement that races the park still wakes it.
 *
 * <p>On-demand edges have a credit of their own besides: the receiver reports (TAKEN) each item the remote
 * worker took; {@link #takenSinceLastLook} counts them per forward input until the sender thread collects
 * them, and {@link #onDemandNews} tells it there is something to collect (set after the count, cleared
 * before reading it, so no report is missed).
 */
final class OutboundLink {
    final String peer;
    final String description;
    private final int maxCredits;
    private final AtomicInteger credits;
    /** The receiving group's {@code maxBufferedBytesPerLink}: a batch goes only while fewer bytes are in flight. */
    private final long maxBytesInFlight;
    /** Payload bytes of the batches sent and not yet acknowledged. */
    private final AtomicLong bytesInFlight = new AtomicLong();

    private final int[] forwardEdges;
    private final int[] feedbackEdges;
    private volatile PeerLink link;
    private long stallTimeoutMs = DffConfig.DEFAULT_STALL_TIMEOUT_MS;
    /** Set when the link opens, read by the event loop at every acknowledgement; null: not watched. */
    private volatile StallWatch stallWatch;
    /** Why the peer was given up on for taking nothing ({@link StallWatch}); reported when the link closes. */
    private volatile String stallReason;

    private volatile BridgeChannels context;
    /** Where the sender thread waits for credits (and, at the end, for the last acknowledgements). */
    private final Parker creditParker = Parker.create();
    /** The sender's re-checks before it parks, made once: waiting allocates nothing. */
    private final Parker.WaitCondition creditOrEnd = this::creditOrEnd;

    private final Parker.WaitCondition allAckedOrEnd = this::allAckedOrEnd;
    /** How the sender thread waits, by the run's wait strategy (set in {@link #attach}). */
    private IdleStrategy creditIdle;
    /** Where the sender's thread idles: woken when an on-demand edge gets credit back or a consumer ended. */
    private volatile Parker senderParker;

    private final AtomicIntegerArray takenSinceLastLook;
    /** 1 for a forward input whose remote consumer ended (GONE): the sender stops holding it. */
    private final AtomicIntegerArray consumerGone;

    private volatile boolean onDemandNews;
    private volatile String brokenReason;
    private volatile boolean finished;
    /** The peer closed the connection cleanly: fine once every batch was acknowledged, else a failure. */
    private volatile boolean peerClosed;
    /** The peer may be lost without failing the run ({@link RecoveryPlan}): then {@link #lose} is called. */
    private volatile boolean recoverable;
    /** The peer was lost and the run goes on: sends are dropped, nothing waits for it any more. */
    private volatile boolean lost;
    /** Sender thread only: every edge's end mark was written. */
    private boolean allEndsWritten;

    // statistics: written by the sender thread only, read after it ended (or approximately, while it runs)
    private volatile long messages;
    private volatile long bytes;
    private volatile long batches;
    private volatile long creditWaitNanos;

    OutboundLink(
            String localGroup,
            String peer,
            int maxCredits,
            long maxBytesInFlight,
            int[] forwardEdges,
            int[] feedbackEdges) {
        this.peer = peer;
        this.description = localGroup + " -> " + peer;
        this.maxCredits = maxCredits;
        this.maxBytesInFlight = maxBytesInFlight;
        this.credits = new AtomicInteger(maxCredits);
        this.forwardEdges = forwardEdges;
        this.feedbackEdges = feedbackEdges;
        this.takenSinceLastLook = new AtomicIntegerArray(forwardEdges.length);
        this.consumerGone = new AtomicIntegerArray(forwardEdges.length);
    }

    void open(PeerLink link) {
        this.link = link;
        this.stallWatch = StallWatch.start(this, link, stallTimeoutMs);
    }

    /** Before {@link #open}: how long the peer may take nothing while batches are unacknowledged; 0: for ever. */
    void stallTimeoutMs(long ms) {
        this.stallTimeoutMs = ms;
    }

    PeerLink link() {
        return link;
    }

    void attach(BridgeChannels ctx) {
        this.context = ctx;
        this.senderParker = ctx.parker();
        this.creditIdle = ctx.newIdleStrategy();
    }

    /** Sender thread: whether any TAKEN report came since the last {@link #collectTaken}. */
    boolean onDemandNews() {
        return onDemandNews;
    }

    /** Sender thread: the items of forward input {@code channel}'s edge taken since the last call. */
    int collectTaken(int channel) {
        return takenSinceLastLook.getAndSet(channel, 0);
    }

    /** Sender thread: whether forward input {@code channel}'s remote consumer ended. */
    boolean consumerGone(int channel) {
        return consumerGone.get(channel) != 0;
    }

    /** Sender thread, before calling {@link #collectTaken} for each input. */
    void startCollecting() {
        onDemandNews = false;
    }

    /** Before the run: the peer holds only workers of recoverable farms, and may be lost. */
    void recoverable() {
        recoverable = true;
    }

    boolean isRecoverable() {
        return recoverable;
    }

    /** Whether the peer was lost (its workers' unanswered items go to others). Any thread. */
    boolean lost() {
        return lost;
    }

    /** The peer is lost: nothing more goes to it, and the sender stops waiting for it. Any thread. */
    void lose() {
        lost = true;
        for (int i = 0; i < forwardEdges.length; i++) {
            consumerGone.set(i, 1); // an on-demand input held for the lost worker drains again (see SenderTask)
        }
        onDemandNews = true;
        creditParker.wake();
        wakeSender();
    }

    /**
     * Sends one batch of {@code count} messages, waiting for a credit first. Takes ownership of it. To a
     * lost peer the batch is dropped: its items are in their ledgers, and go to other workers.
     */
    void send(ByteBuf batch, int count) {
        if (lost || !takeCredit()) {
            batch.release();
            if (lost) {
                return;
            }
            throw cancelledOrBroken();
        }
        int size = batch.readableBytes();
        // Counted before the batch can leave: its ACK may come back (and give these bytes back) at once.
        // The receiver counts the same payload bytes (InboundLink#onBatch).
        bytesInFlight.addAndGet(size);
        link.send(Frames.BATCH, batch);
        messages += count;
        bytes += size + 5;
        batches++;
    }

    /**
     * Waits until the window is open: a batch credit left and fewer than {@link #maxBytesInFlight} bytes in
     * flight. Only this thread takes credits and adds bytes, so an open window stays open until it does.
     */
    private boolean takeCredit() {
        if (windowOpen()) {
            credits.decrementAndGet();
            return true;
        }
        long start = System.nanoTime();
        creditIdle.reset();
        try {
            while (!windowOpen()) {
                if (stopped()) {
                    return false;
                }
                creditIdle.idle(creditParker, creditOrEnd);
            }
            credits.decrementAndGet();
            return true;
        } finally {
            creditWaitNanos += System.nanoTime() - start;
        }
    }

    /** Volatile reads of what the event loop gives back (it updates both before it wakes this thread). */
    boolean windowOpen() {
        return credits.get() > 0 && bytesInFlight.get() < maxBytesInFlight;
    }

    private boolean creditOrEnd() {
        return windowOpen() || stopped();
    }

    private boolean allAckedOrEnd() {
        return credits.get() >= maxCredits || stopped();
    }

    /** The connection broke or closed, or the run was cancelled: no credit will come. */
    private boolean stopped() {
        return lost || brokenReason != null || peerClosed || context.cancelled();
    }

    /** The sender wrote the end mark of its last edge (the batch holding it may not be sent yet). */
    void allEndsWritten() {
        allEndsWritten = true;
    }

    /**
     * After the last batch: waits until every batch was acknowledged. The connection stays open until the
     * whole application has ended ({@link EndAgreement}): a failure anywhere still reaches this group.
     */
    void finish() {
        creditIdle.reset();
        while (credits.get() < maxCredits && !lost) {
            if (stopped() && !lost) {
                throw cancelledOrBroken();
            }
            creditIdle.idle(creditParker, allAckedOrEnd);
        }
        finished = true;
    }

    /** Throws if the connection broke, or the peer closed it with edges still open (checked while idle). */
    void checkBroken() {
        if (lost) {
            return;
        }
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

    /** The receiver acknowledged {@code batchCount} batches of {@code payloadBytes} in all. */
    void onAck(int batchCount, long payloadBytes) {
        if (batchCount <= 0 || payloadBytes < 0 || payloadBytes > bytesInFlight.get()) {
            throw new CorruptBatchException("group " + peer + " at " + remote() + " acknowledged " + batchCount
                    + " batches of " + payloadBytes + " bytes, with " + bytesInFlight.get()
                    + " bytes unacknowledged");
        }
        bytesInFlight.addAndGet(-payloadBytes);
        credits.addAndGet(batchCount); // both before the wake: the sender's re-check sees the whole window
        creditParker.wake();
        StallWatch watch = stallWatch;
        if (watch != null) {
            watch.acked();
        }
    }

    /** Whether batches sent to the peer wait for its acknowledgement. Any thread. */
    boolean hasUnacknowledged() {
        return credits.get() < maxCredits || bytesInFlight.get() > 0;
    }

    /** The batches and bytes unacknowledged, for messages. */
    String describeUnacknowledged() {
        return (maxCredits - credits.get()) + " batches (" + bytesInFlight.get() + " bytes)";
    }

    /** Event loop: the peer took nothing for too long ({@link StallWatch}): the link closes, the run fails. */
    void stalled(String reason) {
        stallReason = reason;
        PeerLink l = link;
        if (l != null) {
            l.channel().close(); // onClosed reports the reason
        }
    }

    void onTaken(int edgeId, int count) {
        for (int i = 0; i < forwardEdges.length; i++) {
            if (forwardEdges[i] == edgeId) {
                takenSinceLastLook.addAndGet(i, count);
                onDemandNews = true; // after the count: the sender clears the flag before it reads counts
                wakeSender();
                return;
            }
        }
        throw new CorruptBatchException(
                "group " + peer + " reported items taken on edge " + edgeId + ", which this group does not send it");
    }

    /** After publishing news for the sender's thread: the waker's half of the Parker handshake. */
    private void wakeSender() {
        Parker sender = senderParker;
        if (sender != null) {
            sender.wake();
        }
    }

    void onGone(int edgeId) {
        BridgeChannels ctx = context;
        if (ctx == null) {
            return;
        }
        for (int i = 0; i < forwardEdges.length; i++) {
            if (forwardEdges[i] == edgeId) {
                consumerGone.set(i, 1);
                ctx.closeInput(i, false);
                onDemandNews = true; // a held input must drain now (what it holds is dropped)
                wakeSender();
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
        String stalled = stallReason;
        if (stalled != null) {
            brokenReason = stalled;
            creditParker.wake();
            return stalled;
        }
        if (finished) {
            return null;
        }
        if (cause == null) {
            peerClosed = true;
            creditParker.wake();
            return null;
        }
        String reason = "lost the connection to group " + peer + " at " + remote() + " before it received"
                + " everything: " + cause.getMessage();
        brokenReason = reason;
        creditParker.wake();
        return reason;
    }

    private Object remote() {
        PeerLink l = link;
        return l == null ? "?" : l.remoteAddress();
    }

    LinkStats stats() {
        return new LinkStats(description, messages, bytes, batches, creditWaitNanos);
    }

    /** Payload bytes sent and not yet acknowledged (for tests). */
    long bytesInFlight() {
        return bytesInFlight.get();
    }
}
