package org.fastflowj.dist.run.link;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.VarHandle;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.runtime.channel.Parker;
import org.fastflowj.core.runtime.queue.SpscQueues;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.net.PeerLink;
import org.jctools.queues.MessagePassingQueue;

/**
 * The receiving end of one connection (one peer group to this group): batches handed from the event
 * loop to the receiver node's thread, and acknowledgements and "consumer gone" notes going back.
 *
 * <p>Threading: the connection's one event loop thread offers batches, the receiver node's thread polls
 * them: a single-producer single-consumer queue, like every edge. The receiver's runner parks on its
 * parker, which this link is given once, at the receiver's start ({@link #wakeOn}); the run-time's
 * handshake (it announces the park and re-checks {@link #batchOrNews}; the event loop offers, then wakes,
 * see {@link #wakeReceiver}) makes either the receiver see the batch or the event loop unpark it.
 *
 * <p>Flow control is enforced here, not trusted to the sender. {@link #heldBatches} and {@link
 * #unackedBytes} count the batches received and not yet acknowledged, and their payload bytes: the
 * receiver subtracts before its ACK leaves, so a correct sender, which sends only while its window is open
 * ({@link OutboundLink}: a credit left and fewer than {@link #maxBufferedBytes} bytes in flight, both given
 * back by ACKs), never finds more than {@link #credits} batches held, nor a batch arriving while {@code
 * maxBufferedBytes} or more are held. Either is a protocol violation that closes the connection and fails
 * the run naming the peer. Reading stops (Netty auto-read off) while the link is full: {@link
 * #maxBufferedBytes} in batches held and items on the local channels together; the peer's further bytes
 * wait in the sockets, and TCP slows it down, whatever it does. Holding {@code credits} batches does not
 * stop reading: a correct sender sends no more then, and a batch past them fails the run, so stopping
 * there would bound nothing more, and would cost a pair of epoll changes per ACK whenever the receiver
 * is the slower side (with small items, in every batch cycle).
 *
 * <p>Pausing and resuming race, and are ordered like the park above. Only the event loop turns reading
 * off or on; the receiver, after giving room back (a volatile read-modify-write), reads {@link
 * #readingPaused} and, if set, asks the event loop to look again ({@link #resumeIfRoom}, one task at a
 * time thanks to {@link #resumePending}). The event loop sets {@code readingPaused} before it checks
 * for room a last time and turns reading off: so either that check sees the room given back, or the
 * receiver sees the flag and the event loop looks again after its own pause. A link is never left
 * paused with room (it would hang: the sender waits for ACKs of batches nobody reads).
 */
public final class InboundLink {
    public final String peer;
    final String description;
    /** The batches the peer may have unacknowledged: its {@code messageOTF} in the common config. */
    final int credits;
    /** {@code maxBufferedBytesPerLink}: serialized bytes held in batches and on local channels. */
    public final long maxBufferedBytes;

    private final MessagePassingQueue<ByteBuf> batches = SpscQueues.unbounded(64);
    /** Batches received and not acknowledged yet: the event loop adds, the receiver subtracts. */
    private final AtomicInteger heldBatches = new AtomicInteger();
    /** Payload bytes of those batches: the byte window the peer's sender keeps within. */
    private final AtomicLong unackedBytes = new AtomicLong();
    /** Bytes of the batches received and not read to the end yet. */
    private final AtomicLong heldBatchBytes = new AtomicLong();
    /** Serialized bytes of the items on local channels that their consumers have not taken yet. */
    private volatile long channelBytes;
    /** Event loop writes: reading is off (or about to be). */
    private volatile boolean readingPaused;
    /** A {@link #resumeIfRoom} task is queued on the event loop. */
    private volatile boolean resumePending;
    /** Bound once: asking the event loop to look again allocates nothing. */
    private final Runnable resumeIfRoom = this::resumeIfRoom;

    private volatile PeerLink link;
    /**
     * Where the receiver's thread parks while it waits: its runner's, set once ({@link #wakeOn}); null
     * before. A batch offered before that is seen by the receiver's re-check before its first park.
     */
    private volatile Parker parker;

    private volatile boolean done;
    private volatile String brokenReason;
    /** Set before the transport starts, which publishes it to the event loop; null: nothing to add. */
    private String neededBecause;
    /** Why the peer was lost, when the run goes on without it ({@link org.fastflowj.dist.run.recovery.RecoveryPlan}); else null. */
    private volatile String lostReason;
    /** Event loop: why the peer broke the protocol, reported when the connection closes. */
    private String violation;

    private volatile long bytes;
    private volatile long batchCount;
    private volatile long messages;

    public InboundLink(String localGroup, String peer, int credits, long maxBufferedBytes) {
        this.peer = peer;
        this.description = peer + " -> " + localGroup;
        this.credits = credits;
        this.maxBufferedBytes = maxBufferedBytes;
    }

    /** The start-up line that says what bounds a group's memory per incoming link. */
    public static String describeBound(String group, long maxBufferedBytes) {
        String amount = maxBufferedBytes % (1 << 20) == 0
                ? (maxBufferedBytes >> 20) + " MiB"
                : maxBufferedBytes % 1024 == 0 ? (maxBufferedBytes >> 10) + " KiB" : maxBufferedBytes + " bytes";
        return "ff-dist: group " + group + " buffers at most " + amount + " of items per peer group it receives"
                + " from (maxBufferedBytesPerLink), then stops reading from that peer";
    }

    public boolean isOpen() {
        return link != null;
    }

    public PeerLink link() {
        return link;
    }

    // ---- receiver thread ----

    public ByteBuf poll() {
        return batches.poll();
    }

    /** At the receiver's start, on its thread, once: the event loop wakes {@code receiver} from then on. */
    public void wakeOn(Parker receiver) {
        if (parker != null) {
            throw new IllegalStateException(description + ": the receiver's parker is set already");
        }
        this.parker = receiver;
    }

    /**
     * The receiver's re-check before it parks: a batch is queued, or the link broke or the peer was lost.
     * Reads what the event loop publishes before it wakes the receiver.
     */
    public boolean batchOrNews() {
        return !batches.isEmpty() || brokenReason != null || lostReason != null;
    }

    /** Whether a batch is queued (the next {@link #poll} returns one). */
    public boolean hasBatch() {
        return !batches.isEmpty();
    }

    /**
     * Acknowledges {@code count} batches: {@code payloadBytes} and {@code messageCount} messages in all
     * (the statistics count 5 header bytes per batch).
     */
    public void ack(int count, long payloadBytes, long messageCount) {
        bytes += payloadBytes + 5L * count;
        batchCount += count;
        messages += messageCount;
        // before the ACK leaves: the credits and bytes it gives back are free here first
        heldBatches.addAndGet(-count);
        unackedBytes.addAndGet(-payloadBytes);
        PeerLink l = link;
        l.send(Frames.ACK, l.alloc().buffer(12).writeInt(count).writeLong(payloadBytes));
        lookAgainIfPaused();
    }

    /**
     * A batch of {@code batchBytes} was read to the end (and released); {@code onChannels} bytes of items
     * are on local channels now.
     */
    public void batchRead(int batchBytes, long onChannels) {
        channelBytes = onChannels;
        heldBatchBytes.addAndGet(-batchBytes);
        lookAgainIfPaused();
    }

    /** Whether reading from the peer is off: the receiver then updates {@link #channelBytes} while idle. */
    public boolean readingPaused() {
        return readingPaused;
    }

    /** The receiver thread, idle: its consumers took items, {@code onChannels} bytes are left on channels. */
    public void channelBytes(long onChannels) {
        channelBytes = onChannels;
        lookAgainIfPaused();
    }

    private void lookAgainIfPaused() {
        if (readingPaused && !resumePending) {
            resumePending = true;
            try {
                link.channel().eventLoop().execute(resumeIfRoom);
            } catch (RejectedExecutionException closing) {
                resumePending = false; // the transport is closing: nothing more to read
            }
        }
    }

    /**
     * The consumer of an on-demand edge took {@code count} more of its items; {@code signals} say whether it
     * waited for one, or one waited for room, since the last report (see {@code Frames}).
     */
    public void taken(int edgeId, int count, int signals) {
        PeerLink l = link;
        if (l != null) {
            l.send(
                    Frames.TAKEN,
                    l.alloc().buffer(9).writeInt(edgeId).writeInt(count).writeByte(signals));
        }
    }

    public void gone(int edgeId) {
        PeerLink l = link;
        if (l != null) {
            l.send(Frames.GONE, l.alloc().buffer(4).writeInt(edgeId));
        }
    }

    /** Every edge of this link ended: a close by the peer is expected from now on. */
    public void done() {
        done = true;
    }

    public String brokenReason() {
        return brokenReason;
    }

    /** Why the peer was lost while the run goes on, or null. */
    public String lostReason() {
        return lostReason;
    }

    /** The peer is lost and the run goes on: the receiver takes what arrived and ends its outputs. Any thread. */
    public void lose(String why) {
        lostReason = why;
        wakeReceiver();
    }

    // ---- event loop ----

    public void onOpen(PeerLink l) {
        link = l;
    }

    /**
     * A batch arrived. Throws {@link CorruptBatchException} when the peer sent it beyond its credits: the
     * transport then closes the connection, and {@link #onClosed} reports the violation.
     */
    public void onBatch(ByteBuf payload) {
        if (done || lostReason != null) {
            payload.release(); // nothing can follow the last end mark; never expected
            return;
        }
        // Counted by its length: a batch of more than a few KiB is a slice of the buffers it was read into,
        // and the batches held hold at most twice their length, plus the buffers at the two ends of their
        // run (net.FrameDecoder.extractFrame).
        int size = payload.readableBytes();
        if (heldBatches.incrementAndGet() > credits) {
            payload.release();
            throw creditsExceeded();
        }
        long bytesBefore = unackedBytes.getAndAdd(size);
        if (bytesBefore >= maxBufferedBytes) {
            payload.release();
            throw byteWindowExceeded(bytesBefore);
        }
        heldBatchBytes.addAndGet(size);
        batches.offer(payload);
        wakeReceiver();
        if (full()) {
            pauseReading();
        }
    }

    private boolean full() {
        return heldBatchBytes.get() + channelBytes >= maxBufferedBytes;
    }

    /** Event loop: reading off, unless the receiver made room meanwhile (see the class comment). */
    private void pauseReading() {
        readingPaused = true;
        if (full()) {
            link.pauseReading();
        } else {
            readingPaused = false;
        }
    }

    /** Event loop: reading on again once there is room. */
    private void resumeIfRoom() {
        resumePending = false; // before the check: a later give-back then queues another look
        if (readingPaused && !full()) {
            readingPaused = false;
            link.resumeReading();
        }
    }

    private CorruptBatchException creditsExceeded() {
        violation = link + " broke the flow-control protocol: it sent" + " a batch beyond the " + credits
                + " unacknowledged batches it may have in flight (messageOTF)";
        return new CorruptBatchException(violation);
    }

    private CorruptBatchException byteWindowExceeded(long bytesBefore) {
        violation = link + " broke the flow-control protocol: it sent a batch while " + bytesBefore
                + " bytes were unacknowledged, when it may send only while fewer than " + maxBufferedBytes
                + " are (maxBufferedBytesPerLink of this group)";
        return new CorruptBatchException(violation);
    }

    /**
     * Before the transport starts: why the run cannot go on without the peer although this group could be
     * lost itself (the peer holds the recoverable farm this group works for), said when the link breaks.
     */
    public void neededBecause(String why) {
        neededBecause = why;
    }

    /** The connection closed: expected only once every edge ended. Returns the failure, or null. */
    public String onClosed(Throwable cause) {
        if (violation != null) {
            brokenReason = violation;
            wakeReceiver();
            return violation;
        }
        if (done) {
            return null;
        }
        String reason = "lost the connection from group " + peer + " at " + link.remoteAddress()
                + " before its stream ended" + (cause == null ? " (closed by the peer)" : ": " + cause.getMessage())
                + (neededBecause == null ? "" : ": " + neededBecause);
        brokenReason = reason;
        wakeReceiver();
        return reason;
    }

    /**
     * After publishing news for the receiver (a batch queued, a flag set): the waker's half of the Parker
     * handshake. The fence orders the publication before the reads of the parker and its state; the
     * receiver's runner announces its park (a store, then a full fence) before it re-checks: so either its
     * re-check sees the news, or this read sees it announced and unparks it. A parker still null means the
     * receiver has not started, and its first re-check comes after that (volatile) write.
     */
    private void wakeReceiver() {
        VarHandle.fullFence();
        Parker receiver = parker;
        if (receiver != null) {
            receiver.wakeAnyway();
        }
    }

    /** Releases batches nobody will read (the run failed). */
    public void drop() {
        for (ByteBuf b = batches.poll(); b != null; b = batches.poll()) {
            b.release();
        }
    }

    public LinkStats stats() {
        return new LinkStats(description, messages, bytes, batchCount, 0);
    }
}
