package org.fastflowj.dist.run;

import static org.fastflowj.dist.net.Frames.RUN_HEADER_BYTES;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.MultiInputNode;
import org.fastflowj.core.runtime.BridgeContext;
import org.fastflowj.core.runtime.BridgeNode;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.serial.ItemCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stands for a peer group in this group's graph: every edge from a local node to a node of that group
 * ends here. Serializes what arrives, on its own thread, into batches of {@code batchSize} messages ({@link
 * BatchSizer}: fixed, or sized by the observed rate), and
 * sends each batch when it is full, when an on-demand item needs to go at once, or when its inputs run
 * dry and the batch is older than {@code flushDelayMicros} (or the thread is about to park).
 *
 * <pre>
 *   local node ──SPSC──▶ ┌──────────────┐ serialize   batch of messages   credits
 *   local node ──SPSC──▶ │ ff-send-G2   │ ──────────▶ [DATA e7 item][EOS e9]... ──TCP──▶ group G2
 *   (forward, feedback)  └──────────────┘
 * </pre>
 *
 * <p>Input channel {@code i} is edge {@code forwardEdges[i]} of the whole graph (feedback: {@code
 * feedbackEdges[i]}). EOS on a forward input becomes an EOS message for that edge; a feedback input whose
 * producer ended becomes a DONE message; an ordered farm's per-task mark from a worker becomes a TASK_DONE
 * message. At the end it flushes, waits for every batch to be acknowledged,
 * and closes the connection.
 *
 * <p>On-demand edges: a remote worker may have a window of items not taken yet ({@link OnDemandWindow}: one
 * slot's worth for a coarse-grained worker, two for a fine-grained one; counted from when the sender sends one
 * until the receiver reports the worker took it, TAKEN); then the sender holds that input ({@link
 * BridgeContext#holdInput}) and the producer's dispatch gives its next items to workers with room, here or
 * elsewhere, as it skips a busy worker in one process. Without this, a remote worker's slot emptied as soon as
 * the sender took the item, and with every worker remote the items went out round-robin whatever the workers'
 * speed (FastFlow's tests/distributed/test_a2aOnDemand).
 *
 * <p>Recovery: an item to a recoverable farm's or all-to-all's remote worker is kept in that worker's
 * {@link RecoveryLedger} until answered; an output of a recoverable all-to-all's R-Worker in this group goes
 * with the tag of the item it answers ({@link TakeOrder}: 8 bytes before the item in its DATA run).
 *
 * <p>Threading: its own node thread; the link's event loop only returns credits.
 */
final class SenderNode extends MultiInputNode<Object, Void> implements BridgeNode {
    private static final Logger LOG = LoggerFactory.getLogger(SenderNode.class);
    private static final int MIN_BATCH_CAPACITY = 256;
    private static final int MAX_INPUT_CHUNK = 1024;
    /**
     * Batches expected up to this size are built in heap memory, bigger ones in direct memory. Per item,
     * writes into a direct buffer go through Unsafe's checked copy and Netty's per-call checks; into a
     * heap array they are plain stores and arraycopy, a third to a half cheaper for 8-byte items
     * (NetThroughput's 8 B cells). The transport then copies a heap frame into
     * direct memory once, which costs little for small batches and would be a second copy for big ones.
     */
    static final int HEAP_BATCH_MAX_BYTES = 64 * 1024;

    private final OutboundLink out;
    private final int[] forwardEdges;
    private final int[] feedbackEdges;
    private final boolean[] sendAtOnce;
    /** Per forward input: how many items the remote on-demand worker may have untaken, or null: not on-demand. */
    private final OnDemandWindow[] onDemandWindow;
    /** The forward inputs that are on-demand. */
    private final int[] onDemandInputs;
    /** Per forward input: items sent on its on-demand edge that the remote worker has not taken yet. */
    private final int[] untaken;

    private final boolean[] held;
    private boolean anyHeld;
    private BridgeContext context;
    private final BatchSizer batchSizer;
    /** The input ran dry since the last batch left: the batch did not fill at the sender's own pace. */
    private boolean inputRanDry;

    private final long flushDelayNanos;
    private final int maxFrameBytes;
    private final SerializationConfig serialization;
    private ItemCodec codec;
    private ByteBuf batch;
    /**
     * Capacity of the next batch buffer: the size of the last full batch. A buffer that starts at 256
     * bytes regrows by doubling, and each regrowth copies what it holds: a batch of 32 items of 64 KiB
     * was copied about twice more on its way to the socket.
     */
    private int nextBatchCapacity = MIN_BATCH_CAPACITY;

    /** Messages in the batch: items, EOS and DONE marks. */
    private int count;
    /** The edge of the DATA run being written (-1: none), where its count goes, and its items. */
    private int runEdge = -1;

    private int runCountAt;
    private int runItems;
    private long batchStartNanos;
    /** Edges whose end mark (EOS or DONE) is not written yet. */
    private int openEdges;
    /** Per forward input: the ledger of the recoverable farm's remote worker it feeds, or null (none). */
    private RecoveryLedger[] ledgers;
    /** The peer is lost: its inputs are closed (the emitter routes elsewhere), its unanswered items handed back. */
    private boolean lostInputsClosed;

    private boolean lostItemsHandedBack;
    /** Per forward input: the tags of the remote R-Worker's outputs it carries, or null (none). */
    private TakeOrder[] tags;
    /**
     * Some input is a recoverable farm's or all-to-all's ({@link #ledgers} or {@link #tags}): the only test
     * per item a sender without recovery makes for it.
     */
    private boolean recovering;

    SenderNode(
            OutboundLink out,
            int[] forwardEdges,
            int[] feedbackEdges,
            int[] onDemandSlots,
            int batchSize,
            long flushDelayMicros,
            int maxFrameBytes,
            SerializationConfig serialization) {
        this.out = out;
        this.forwardEdges = forwardEdges;
        this.feedbackEdges = feedbackEdges;
        this.onDemandWindow = new OnDemandWindow[onDemandSlots.length];
        this.sendAtOnce = new boolean[onDemandSlots.length];
        for (int i = 0; i < onDemandSlots.length; i++) {
            onDemandWindow[i] = onDemandSlots[i] > 0 ? new OnDemandWindow(onDemandSlots[i]) : null;
            sendAtOnce[i] = onDemandSlots[i] > 0;
        }
        this.onDemandInputs = IntStream.range(0, onDemandSlots.length)
                .filter(i -> onDemandSlots[i] > 0)
                .toArray();
        this.untaken = new int[onDemandSlots.length];
        this.held = new boolean[onDemandSlots.length];
        this.flushDelayNanos = TimeUnit.MICROSECONDS.toNanos(flushDelayMicros);
        this.batchSizer = new BatchSizer(batchSize, flushDelayNanos);
        this.maxFrameBytes = maxFrameBytes;
        this.serialization = serialization;
        this.openEdges = forwardEdges.length + feedbackEdges.length;
    }

    /** Before the run: per forward input, the ledger of the recoverable farm's worker it feeds (or null). */
    void recoverWith(RecoveryLedger[] ledgersOfInputs) {
        this.ledgers = ledgersOfInputs;
        this.recovering = true;
    }

    /**
     * Before the run: per forward input, the take order of the recoverable all-to-all's R-Worker whose
     * outputs it carries (or null): each such output goes with the tag of the item it answers.
     */
    void tagWith(TakeOrder[] tagsOfInputs) {
        this.tags = tagsOfInputs;
        this.recovering = true;
    }

    @Override
    public void attach(BridgeContext context) {
        this.context = context;
        out.attach(context);
        if (ledgers != null) {
            for (RecoveryLedger ledger : ledgers) {
                if (ledger != null) {
                    ledger.senderIs(Thread.currentThread());
                }
            }
        }
    }

    @Override
    protected void svcInit() {
        codec = new ItemCodec(serialization);
    }

    @Override
    protected Void svc(Object item) {
        if (item == null) {
            return goOn(); // the run-time starts a node whose only inputs are feedback channels with svc(null)
        }
        boolean feedback = fromFeedback();
        int channel = inputChannel();
        int edge = feedback ? feedbackEdges[channel] : forwardEdges[channel];
        if (recovering && !feedback) {
            return svcRecoverable(item, channel, edge);
        }
        write(item, edge);
        afterItem(feedback, channel);
        return goOn();
    }

    /**
     * An item on an input of a recoverable farm or all-to-all: kept in its ledger until its worker answers
     * (to a remote worker), or sent with the tag of the item it answers (from a remote R-Worker).
     */
    private Void svcRecoverable(Object item, int channel, int edge) {
        RecoveryLedger ledger = ledgers == null ? null : ledgers[channel];
        if (ledger != null) {
            if (out.lost()) { // the emitter put it there before it saw the worker gone: another worker takes it
                ledger.handBack(item);
                recoverLostWorkers();
                return goOn();
            }
            ledger.record(item); // kept until the worker's output for it arrives
        }
        TakeOrder order = tags == null ? null : tags[channel];
        if (order == null) {
            write(item, edge);
        } else {
            writeTagged(item, edge, order.next());
        }
        afterItem(false, channel);
        return goOn();
    }

    /** Serializes the item into the batch, in the DATA run of its edge. */
    private void write(Object item, int edge) {
        if (edge != runEdge || batch == null) {
            startRun(edge);
        }
        int start = batch.writerIndex();
        try {
            codec.write(item, batch);
        } catch (RuntimeException | Error e) {
            discardBatch(); // the run fails with this exception: its unsent batch would leak
            throw e;
        }
        count++;
        runItems++;
        if (batch.writerIndex() > maxFrameBytes - 64) {
            splitOversized(start, edge, item, false, 0);
        }
    }

    /** {@link #write}, the item preceded by its tag (a recoverable all-to-all's R-Worker's output). */
    private void writeTagged(Object item, int edge, long tag) {
        if (edge != runEdge || batch == null) {
            startRun(edge);
        }
        int start = batch.writerIndex();
        try {
            batch.writeLong(tag);
            codec.write(item, batch);
        } catch (RuntimeException | Error e) {
            discardBatch();
            throw e;
        }
        count++;
        runItems++;
        if (batch.writerIndex() > maxFrameBytes - 64) {
            splitOversized(start, edge, item, true, tag);
        }
    }

    /** After an item: an on-demand one goes at once, a full batch goes, and workers' reports are read. */
    private void afterItem(boolean feedback, int channel) {
        if (!feedback && sendAtOnce[channel]) {
            flush();
            untaken[channel]++;
            holdIfRemoteWorkerFull(channel);
        } else if (count >= batchSizer.target() || batchSizer.fullAt(batch.writerIndex())) {
            flush();
        }
        if (anyHeld && out.onDemandNews()) {
            collectTaken();
        }
    }

    /** The remote worker behind this on-demand input has its window's worth: take no more from it. */
    private void holdIfRemoteWorkerFull(int channel) {
        if (untaken[channel] >= onDemandWindow[channel].window() && out.onDemandNews()) {
            collectTaken(); // maybe it took some meanwhile
        }
        if (!held[channel] && untaken[channel] >= onDemandWindow[channel].window() && !out.consumerGone(channel)) {
            held[channel] = true;
            anyHeld = true;
            context.holdInput(channel, true);
        }
    }

    /** Counts the items remote workers took (TAKEN) and lets go of the inputs whose workers have room again. */
    private void collectTaken() {
        out.startCollecting(); // before reading the counts: a report after this sets it again
        long now = System.nanoTime();
        boolean stillHeld = false;
        for (int channel : onDemandInputs) {
            int taken = out.collectTaken(channel);
            untaken[channel] -= taken;
            onDemandWindow[channel].taken(taken, now);
            if (held[channel] && (untaken[channel] < onDemandWindow[channel].window() || out.consumerGone(channel))) {
                held[channel] = false;
                context.holdInput(channel, false);
            }
            stillHeld |= held[channel];
        }
        anyHeld = stillHeld;
    }

    @Override
    protected void eosNotify(int channel) {
        begin(Frames.EOS, forwardEdges[channel]);
        count++;
        edgeEnded();
    }

    /** An ordered farm's per-task mark from a local worker: it follows that task's items to the collector. */
    @Override
    public void taskDone(int channel) {
        begin(Frames.TASK_DONE, forwardEdges[channel]);
        count++;
        if (count >= batchSizer.target()) {
            flush();
        }
    }

    @Override
    public void feedbackInputEnded(int channel) {
        begin(Frames.DONE, feedbackEdges[channel]);
        count++;
        edgeEnded();
    }

    private void edgeEnded() {
        if (--openEdges == 0) {
            out.allEndsWritten();
        }
    }

    /**
     * A batch's worth of items per slot of the input channels: when serializing is slower than producing,
     * the sender then takes them a chunk at a time, fewer channel operations per item (NetThroughput's
     * 8 B cells with Kryo); when it keeps up, it takes each item as it comes.
     */
    @Override
    public int inputChunkCapacity() {
        return Math.min(batchSizer.max(), MAX_INPUT_CHUNK);
    }

    @Override
    public void inputIdle(boolean aboutToPark) {
        inputRanDry = true;
        if (count > 0 && (aboutToPark || System.nanoTime() - batchStartNanos >= flushDelayNanos)) {
            flush();
        }
        if (anyHeld && out.onDemandNews()) {
            collectTaken();
        }
        if (ledgers != null) {
            if (out.lost()) {
                recoverLostWorkers();
            } else {
                refuseWorkersThatEnded();
            }
        }
        out.checkBroken();
    }

    /**
     * A recoverable farm's remote worker that ended early (its group reported it GONE) leaves items that
     * will never be answered: its emitter would wait for them forever, so the run fails instead.
     */
    private void refuseWorkersThatEnded() {
        for (int i = 0; i < ledgers.length; i++) {
            if (ledgers[i] != null && out.consumerGone(i)) {
                throw new IllegalStateException(ledgers[i] + ": it ended before the end of its stream, but a"
                        + " recoverable farm's worker must answer every item (Farm.recoverable())");
            }
        }
    }

    /**
     * The peer, a group of recoverable farms' workers, is lost: the emitter stops routing to its workers,
     * and once the receiver took their last outputs, their unanswered items go back to the emitter, which
     * sends them to the workers that are left.
     */
    private void recoverLostWorkers() {
        if (!lostInputsClosed) {
            lostInputsClosed = true;
            for (int i = 0; i < ledgers.length; i++) {
                if (ledgers[i] != null) {
                    context.closeInput(i, false);
                }
            }
        }
        if (lostItemsHandedBack) {
            return;
        }
        for (RecoveryLedger ledger : ledgers) {
            if (ledger != null && !ledger.answersAreOver()) {
                return; // the receiver wakes this thread when it is done
            }
        }
        lostItemsHandedBack = true;
        for (RecoveryLedger ledger : ledgers) {
            if (ledger != null) {
                int sentAgain = ledger.handBackUnanswered();
                LOG.warn(
                        "group {} lost: {} unanswered item(s) go to the other workers ({})",
                        out.peer,
                        sentAgain,
                        ledger);
            }
        }
    }

    @Override
    protected void svcEnd() {
        if (count > 0) {
            flush();
        }
        out.finish();
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

    /** Starts a message (closing any open run); returns where it starts in the batch. */
    private int begin(byte kind, int edgeId) {
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
            int room = org.fastflowj.dist.net.Frames.HEADER_BYTES;
            batch.writerIndex(room).readerIndex(room);
        }
        int start = batch.writerIndex();
        batch.writeByte(kind);
        batch.writeInt(edgeId);
        return start;
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
            discardBatch();
            throw new IllegalStateException("an item of " + messageBytes + " bytes for edge " + edgeId + " to group "
                    + out.peer + " is larger than maxFrameBytes (" + maxFrameBytes + "): raise it in the config");
        }
    }

    private void discardBatch() {
        if (batch != null) {
            batch.release();
            batch = null;
        }
        count = 0;
        runEdge = -1;
    }

    private void flush() {
        closeRun();
        ByteBuf full = batch;
        int messages = count;
        // a partial batch (idle, on-demand, end) says nothing of the next
        if (messages >= batchSizer.target() || batchSizer.fullAt(full.writerIndex())) {
            nextBatchCapacity = Math.max(MIN_BATCH_CAPACITY, Math.min(full.writerIndex(), maxFrameBytes));
        }
        batch = null;
        count = 0;
        batchSizer.sending(messages, System.nanoTime(), !inputRanDry);
        inputRanDry = false;
        out.send(full, messages);
        batchSizer.sent(System.nanoTime());
    }

    @Override
    public String toString() {
        return "sender to group " + out.peer;
    }
}
