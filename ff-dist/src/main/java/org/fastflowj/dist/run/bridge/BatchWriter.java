package org.fastflowj.dist.run.bridge;

import static org.fastflowj.dist.net.Frames.RUN_HEADER_BYTES;

import io.netty.buffer.ByteBuf;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.run.link.OutboundLink;
import org.fastflowj.dist.serial.ItemCodec;

/**
 * Builds the batches a {@link SenderTask} sends to one peer: messages written into a buffer with room for
 * the frame header in front, consecutive items of one edge as one DATA run (its count patched in when the
 * run closes), end marks (EOS, DONE), task marks (TASK_DONE) and checkpoints' barriers (BARRIER, with
 * the checkpoint's id) as messages of their own; and hands each full batch to the {@link OutboundLink}.
 * Sized by its {@link BatchSizer}.
 *
 * <p>A batch the link refuses for want of credit is kept as it is, sealed ({@link #hasPending}), and
 * offered again by {@link #sendPending}, or by the next {@link #flush}; while it waits, the sender writes
 * nothing new (it stops draining its inputs), so at most one batch waits and nothing is copied.
 *
 * <pre>
 *   [header room][DATA e7 n=3 item item item][TASK_DONE e7][DATA e9 n=1 tag item][BARRIER e7 id][EOS e7]
 * </pre>
 *
 * <p>Threading: the sender's thread only.
 */
final class BatchWriter {
    private static final int MIN_BATCH_CAPACITY = 256;
    /**
     * Batches expected up to this size are built in heap memory, bigger ones in direct memory. Per item,
     * writes into a direct buffer go through Unsafe's checked copy and Netty's per-call checks; into a
     * heap array they are plain stores and arraycopy, a third to a half cheaper for 8-byte items
     * (NetThroughput's 8 B cells). The transport then copies a heap frame into
     * direct memory once, which costs little for small batches and would be a second copy for big ones.
     */
    static final int HEAP_BATCH_MAX_BYTES = 64 * 1024;

    private final OutboundLink out;
    private final ItemCodec codec;
    private final BatchSizer sizer;
    private final int maxFrameBytes;

    private ByteBuf batch;
    /** A sealed batch waiting for credit, and its messages; null: none. */
    private ByteBuf pending;

    private int pendingCount;
    /**
     * Capacity of the next batch buffer: the size of the last full batch. A buffer that starts at 256
     * bytes regrows by doubling, and each regrowth copies what it holds, so a batch of large items would
     * otherwise be copied several more times on its way to the socket.
     */
    private int nextBatchCapacity = MIN_BATCH_CAPACITY;

    /** Messages in the batch: items, end and task marks, barriers. */
    private int count;
    /** The edge of the DATA run being written (-1: none), where its count goes, and its items. */
    private int runEdge = -1;

    private int runCountAt;
    private int runItems;
    private long batchStartNanos;
    /** The input ran dry since the last batch left: the batch did not fill at the sender's own pace. */
    private boolean inputRanDry;

    BatchWriter(OutboundLink out, ItemCodec codec, BatchSizer sizer, int maxFrameBytes) {
        this.out = out;
        this.codec = codec;
        this.sizer = sizer;
        this.maxFrameBytes = maxFrameBytes;
    }

    /** Messages written since the last batch left. */
    int messages() {
        return count;
    }

    /** Whether the batch reached its target size (messages or bytes). */
    boolean isFull() {
        return count >= sizer.target() || sizer.fullAt(batch.writerIndex());
    }

    /** Whether the batch holds messages that waited at least {@code delayNanos}. */
    boolean olderThan(long delayNanos, long now) {
        return count > 0 && now - batchStartNanos >= delayNanos;
    }

    /** The sender's inputs ran dry: the batch being built did not fill at the sender's own pace. */
    void inputRanDry() {
        inputRanDry = true;
    }

    /** Serializes the item into the batch, in the DATA run of its edge. */
    void item(Object item, int edge) {
        if (edge != runEdge || batch == null) {
            startRun(edge);
        }
        int start = batch.writerIndex();
        try {
            codec.write(item, batch);
        } catch (RuntimeException | Error e) {
            discard(); // the run fails with this exception: its unsent batch would leak
            throw e;
        }
        count++;
        runItems++;
        if (batch.writerIndex() > maxFrameBytes - 64) {
            splitOversized(start, edge, item, false, 0);
        }
    }

    /** {@link #item}, preceded by its tag (a recoverable all-to-all's R-Worker's output). */
    void taggedItem(Object item, int edge, long tag) {
        if (edge != runEdge || batch == null) {
            startRun(edge);
        }
        int start = batch.writerIndex();
        try {
            batch.writeLong(tag);
            codec.write(item, batch);
        } catch (RuntimeException | Error e) {
            discard();
            throw e;
        }
        count++;
        runItems++;
        if (batch.writerIndex() > maxFrameBytes - 64) {
            splitOversized(start, edge, item, true, tag);
        }
    }

    /** A message of its own for the edge: an end mark ({@link Frames#EOS}, {@link Frames#DONE}) or a task mark. */
    void mark(byte kind, int edge) {
        begin(kind, edge);
        count++;
    }

    /** Checkpoint {@code id}'s barrier on the edge, after the edge's items written before it. */
    void barrier(int edge, long id) {
        begin(Frames.BARRIER, edge);
        batch.writeLong(id);
        count++;
    }

    /** Starts a DATA run for the edge (its count patched in when it closes). */
    private void startRun(int edgeId) {
        begin(Frames.DATA, edgeId);
        runEdge = edgeId;
        runCountAt = batch.writerIndex();
        runItems = 0;
        batch.writeInt(0);
    }

    /** Writes the open run's count; the next item starts a new run. */
    private void closeRun() {
        if (runEdge >= 0) {
            batch.setInt(runCountAt, runItems);
            runEdge = -1;
        }
    }

    /** Starts a message (closing any open run). */
    private void begin(byte kind, int edgeId) {
        if (runEdge >= 0) {
            closeRun();
        }
        if (batch == null) {
            batch = nextBatchCapacity <= HEAP_BATCH_MAX_BYTES
                    ? out.link().alloc().heapBuffer(nextBatchCapacity)
                    : out.link().alloc().directBuffer(nextBatchCapacity);
            batchStartNanos = System.nanoTime();
            codec.startBatch(); // the receiver does the same before reading this batch
            // Room for the frame header in front of the messages: the transport writes it in place.
            int room = Frames.HEADER_BYTES;
            batch.writerIndex(room).readerIndex(room);
        }
        batch.writeByte(kind);
        batch.writeInt(edgeId);
    }

    /**
     * The last item made the batch too large for a frame: send what came before, and write the item
     * again as the first of the next batch (its bytes may name classes by ids of the batch it leaves).
     * An item alone in its batch stays: it fits, or it fails as too large.
     */
    private void splitOversized(int start, int edgeId, Object item, boolean tagged, long tag) {
        failIfTooLarge(batch.writerIndex() - start + RUN_HEADER_BYTES, edgeId);
        if (count == 1) {
            return;
        }
        batch.writerIndex(start);
        codec.unwriteLast(); // the receiver never sees this writing: the next one must stand on its own
        count--;
        if (--runItems == 0) { // the run held only this item: drop its header too
            batch.writerIndex(runCountAt - 1 - Integer.BYTES);
            runEdge = -1;
        }
        flush();
        startRun(edgeId);
        int restart = batch.writerIndex();
        if (tagged) {
            batch.writeLong(tag);
        }
        codec.write(item, batch);
        count = 1;
        runItems = 1;
        // Written again it may be longer: the class names it had referred to by id now travel with it.
        failIfTooLarge(batch.writerIndex() - restart + RUN_HEADER_BYTES, edgeId);
    }

    private void failIfTooLarge(int messageBytes, int edgeId) {
        if (messageBytes > maxFrameBytes - 64) {
            discard();
            throw new IllegalStateException("an item of " + messageBytes + " bytes for edge " + edgeId + " to group "
                    + out.peer + " is larger than maxFrameBytes (" + maxFrameBytes + "): raise it in the config");
        }
    }

    /** Drops the unsent batches (the run failed). */
    void discard() {
        if (batch != null) {
            batch.release();
            batch = null;
        }
        if (pending != null) {
            pending.release();
            pending = null;
        }
        count = 0;
        runEdge = -1;
    }

    /** Whether a sealed batch waits for credit: nothing new may be written until it went. */
    boolean hasPending() {
        return pending != null;
    }

    /**
     * Offers the batch waiting for credit to the link again; true if it went (or none waited), false if
     * it still waits. Throws if the link will give no credit (the batch released).
     */
    boolean sendPending() {
        ByteBuf waiting = pending;
        if (waiting == null) {
            return true;
        }
        pending = null; // the link owns it once it accepts, or released it if it throws
        if (!out.trySend(waiting, pendingCount)) {
            pending = waiting;
            return false;
        }
        sizer.sent(System.nanoTime());
        return true;
    }

    /**
     * Sends the batch if it holds any message: true if it went (or was empty), false if it waits for
     * credit, sealed, or could not be sealed because an earlier one still waits (it then stays open).
     */
    boolean flush() {
        if (!sendPending()) {
            return false;
        }
        if (count == 0) {
            return true;
        }
        closeRun();
        ByteBuf full = batch;
        int messages = count;
        // a partial batch (idle, on-demand, end) says nothing of the next
        if (messages >= sizer.target() || sizer.fullAt(full.writerIndex())) {
            nextBatchCapacity = Math.max(MIN_BATCH_CAPACITY, Math.min(full.writerIndex(), maxFrameBytes));
        }
        batch = null;
        count = 0;
        sizer.sending(messages, System.nanoTime(), !inputRanDry);
        inputRanDry = false;
        pending = full;
        pendingCount = messages;
        return sendPending();
    }
}
