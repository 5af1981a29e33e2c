package org.fastflowj.dist.run.link;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.runtime.bridge.BridgeChannels;
import org.fastflowj.core.runtime.channel.Parker;
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
 * <p>Threading: {@link #trySend} and {@link #tryFinish} on the sender's thread, never waiting; {@code on*}
 * on the connection's event loop. {@link #credits} and {@link #bytesInFlight} are the shared counters
 * (the sender takes, the event loop gives back, both before it wakes the sender). A batch refused for
 * want of credit stays with the sender, whose runner idles on its one parker: the event loop's wake and
 * the runner's re-check ({@link #windowOpenOrStopped}) follow the run-time's handshake (see {@link
 * #wakeSender}), so an acknowledgement that races the park still wakes it.
 *
 * <p>On-demand edges have a credit of their own besides: the receiver reports (TAKEN) each item the remote
 * worker took; {@link #takenSinceLastLook} counts them per forward input until the sender thread collects
 * them, and {@link #onDemandNews} tells it there is something to collect (set after the count, cleared
 * before reading it, so no report is missed).
 */
public final class OutboundLink {
    public final String peer;
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
    /**
     * The sender runner's parker, its one place to wait: woken for credits and the last acknowledgements,
     * an on-demand edge's credit back, a consumer ended, the link closed or lost. Set once, in {@link
     * #attach}; null before (the sender then has not looked at anything yet).
     */
    private volatile Parker senderParker;
    /** Sender thread: when the window first refused the batch now waiting for credit; 0: none waits. */
    private long creditWaitStart;

    private final AtomicIntegerArray takenSinceLastLook;
    /** Per forward input: the signals of the TAKEN reports since the sender last collected them. */
    private final AtomicIntegerArray signalsSinceLastLook;
    /** 1 for a forward input whose remote consumer ended (GONE): the sender stops holding it. */
    private final AtomicIntegerArray consumerGone;

    private volatile boolean onDemandNews;
    private volatile String brokenReason;
    /** Set before the transport starts, which publishes it to the event loop and the sender; null: nothing to add. */
    private String neededBecause;

    private volatile boolean finished;
    /** The peer closed the connection cleanly: fine once every batch was acknowledged, else a failure. */
    private volatile boolean peerClosed;
    /** The peer may be lost without failing the run ({@link org.fastflowj.dist.run.recovery.RecoveryPlan}): then {@link #lose} is called. */
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

    public OutboundLink(
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
        this.signalsSinceLastLook = new AtomicIntegerArray(forwardEdges.length);
        this.consumerGone = new AtomicIntegerArray(forwardEdges.length);
    }

    public void open(PeerLink link) {
        this.link = link;
        this.stallWatch = StallWatch.start(this, link, stallTimeoutMs);
    }

    /** Before {@link #open}: how long the peer may take nothing while batches are unacknowledged; 0: for ever. */
    public void stallTimeoutMs(long ms) {
        this.stallTimeoutMs = ms;
    }

    public PeerLink link() {
        return link;
    }

    public void attach(BridgeChannels ctx) {
        this.context = ctx;
        this.senderParker = ctx.parker();
    }

    /** Sender thread: whether any TAKEN report came since the last {@link #collectTaken}. */
    public boolean onDemandNews() {
        return onDemandNews;
    }

    /** Sender thread: the items of forward input {@code channel}'s edge taken since the last call. */
    public int collectTaken(int channel) {
        return takenSinceLastLook.getAndSet(channel, 0);
    }

    /**
     * Sender thread: the signals of the reports on forward input {@code channel}'s edge since the last call
     * (or-ed; see {@code OnDemandWindow}).
     */
    public int collectSignals(int channel) {
        return signalsSinceLastLook.getAndSet(channel, 0);
    }

    /** Event loop: adds a report's signals to those the sender has not collected. */
    private void orSignals(int channel, int signals) {
        int seen;
        do {
            seen = signalsSinceLastLook.get(channel);
        } while ((seen | signals) != seen && !signalsSinceLastLook.compareAndSet(channel, seen, seen | signals));
    }

    /** Sender thread: whether forward input {@code channel}'s remote consumer ended. */
    public boolean consumerGone(int channel) {
        return consumerGone.get(channel) != 0;
    }

    /** Sender thread, before calling {@link #collectTaken} for each input. */
    public void startCollecting() {
        onDemandNews = false;
    }

    /** Before the run: the peer holds only workers of recoverable farms, and may be lost. */
    public void recoverable() {
        recoverable = true;
    }

    boolean isRecoverable() {
        return recoverable;
    }

    /** Whether the peer was lost (its workers' unanswered items go to others). Any thread. */
    public boolean lost() {
        return lost;
    }

    /** The peer is lost: nothing more goes to it, and the sender stops waiting for it. Any thread. */
    public void lose() {
        lost = true;
        for (int i = 0; i < forwardEdges.length; i++) {
            consumerGone.set(i, 1); // an on-demand input held for the lost worker drains again (see SenderTask)
        }
        onDemandNews = true;
        wakeSender();
    }

    /**
     * Sends one batch of {@code count} messages if the window is open, and takes ownership of it (true).
     * False, without waiting, while the window is closed: the caller keeps the batch and offers it again
     * once {@link #windowOpenOrStopped}. To a lost peer the batch is dropped (true): its items are in their
     * ledgers, and go to other workers. Throws, the batch released, if no credit will come.
     */
    public boolean trySend(ByteBuf batch, int count) {
        if (!lost && !windowOpen()) {
            if (!stopped()) {
                if (creditWaitStart == 0) {
                    creditWaitStart = System.nanoTime() | 1; // never 0: 0 means no batch waits
                }
                return false;
            }
            batch.release();
            throw cancelledOrBroken();
        }
        if (creditWaitStart != 0) {
            creditWaitNanos += System.nanoTime() - creditWaitStart;
            creditWaitStart = 0;
        }
        if (lost) {
            batch.release();
            return true;
        }
        // Only this thread takes credits and adds bytes, so the open window stays open until it does.
        credits.decrementAndGet();
        int size = batch.readableBytes();
        // Counted before the batch can leave: its ACK may come back (and give these bytes back) at once.
        // The receiver counts the same payload bytes (InboundLink#onBatch).
        bytesInFlight.addAndGet(size);
        link.send(Frames.BATCH, batch);
        messages += count;
        bytes += size + 5;
        batches++;
        return true;
    }

    /** Volatile reads of what the event loop gives back (it updates both before it wakes this thread). */
    public boolean windowOpen() {
        return credits.get() > 0 && bytesInFlight.get() < maxBytesInFlight;
    }

    /** The sender's re-check while a batch waits for credit: {@link #trySend} would not refuse it now. */
    public boolean windowOpenOrStopped() {
        return windowOpen() || stopped();
    }

    /** The sender's re-check while it waits for the last acknowledgements: {@link #tryFinish} would answer. */
    public boolean allAckedOrStopped() {
        return credits.get() >= maxCredits || stopped();
    }

    /** The connection broke or closed, the peer was lost, or the run was cancelled: no credit will come. */
    private boolean stopped() {
        BridgeChannels ctx = context;
        return lost || brokenReason != null || peerClosed || (ctx != null && ctx.cancelled());
    }

    /** The sender wrote the end mark of its last edge (the batch holding it may not be sent yet). */
    public void allEndsWritten() {
        allEndsWritten = true;
    }

    /**
     * After the last batch went: whether every batch was acknowledged (or the peer was lost), and the link
     * is finished; false while acknowledgements are due, without waiting. Throws if they will not come. The
     * connection stays open until the whole application has ended ({@code EndAgreement}): a failure
     * anywhere still reaches this group.
     */
    public boolean tryFinish() {
        if (lost || credits.get() >= maxCredits) {
            finished = true;
            return true;
        }
        if (stopped()) {
            throw cancelledOrBroken();
        }
        return false;
    }

    /** Throws if the connection broke, or the peer closed it with edges still open (checked while idle). */
    public void checkBroken() {
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
                    + " received everything this group sent it "
                    + (neededBecause == null ? "(did it end or fail on its own?)" : "(" + neededBecause + ")"));
        }
        return new CancellationException("the run was cancelled");
    }

    // ---- event loop ----

    /** The receiver acknowledged {@code batchCount} batches of {@code payloadBytes} in all. */
    public void onAck(int batchCount, long payloadBytes) {
        if (batchCount <= 0 || payloadBytes < 0 || payloadBytes > bytesInFlight.get()) {
            throw new CorruptBatchException("group " + peer + " at " + remote() + " acknowledged " + batchCount
                    + " batches of " + payloadBytes + " bytes, with " + bytesInFlight.get()
                    + " bytes unacknowledged");
        }
        bytesInFlight.addAndGet(-payloadBytes);
        credits.addAndGet(batchCount); // both before the wake: the sender's re-check sees the whole window
        wakeSender();
        StallWatch watch = stallWatch;
        if (watch != null) {
            watch.acked();
        }
    }

    /** Whether batches sent to the peer wait for its acknowledgement. Any thread. */
    public boolean hasUnacknowledged() {
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

    public void onTaken(int edgeId, int count, int signals) {
        for (int i = 0; i < forwardEdges.length; i++) {
            if (forwardEdges[i] == edgeId) {
                takenSinceLastLook.addAndGet(i, count);
                orSignals(i, signals);
                onDemandNews = true; // after the count: the sender clears the flag before it reads counts
                wakeSender();
                return;
            }
        }
        throw new CorruptBatchException(
                "group " + peer + " reported items taken on edge " + edgeId + ", which this group does not send it");
    }

    /**
     * After publishing news for the sender's thread (credits, counts, flags): the waker's half of the
     * Parker handshake. The fence orders the publication before the reads of the parker and its state;
     * the runner announces its park (a store, then a full fence) before it re-checks: so either its
     * re-check sees the news, or this read sees it announced and unparks it. A parker still null means
     * the sender has not attached, and its first re-check comes after that (volatile) write.
     */
    private void wakeSender() {
        VarHandle.fullFence();
        Parker sender = senderParker;
        if (sender != null) {
            sender.wakeAnyway();
        }
    }

    public void onGone(int edgeId) {
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
     * Before the transport starts: why the run cannot go on without the peer although this group could be
     * lost itself (the peer holds the recoverable farm this group works for), said when the link breaks.
     */
    public void neededBecause(String why) {
        neededBecause = why;
    }

    /**
     * The connection closed. A clean close is judged by the sender thread (its acknowledgements may still
     * be in this same read: the peer acknowledges its last batch and closes); a broken one fails now.
     * Returns the failure, or null.
     */
    public String onClosed(Throwable cause) {
        String stalled = stallReason;
        if (stalled != null) {
            brokenReason = stalled;
            wakeSender();
            return stalled;
        }
        if (finished) {
            return null;
        }
        if (cause == null) {
            peerClosed = true;
            wakeSender();
            return null;
        }
        String reason = "lost the connection to group " + peer + " at " + remote() + " before it received"
                + " everything: " + cause.getMessage()
                + (neededBecause == null ? "" : ": " + neededBecause);
        brokenReason = reason;
        wakeSender();
        return reason;
    }

    private Object remote() {
        PeerLink l = link;
        return l == null ? "?" : l.remoteAddress();
    }

    public LinkStats stats() {
        return new LinkStats(description, messages, bytes, batches, creditWaitNanos);
    }

    /** Payload bytes sent and not yet acknowledged (for tests). */
    long bytesInFlight() {
        return bytesInFlight.get();
    }
}
