package org.fastflowj.dist.run;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.MultiOutputNode;
import org.fastflowj.core.runtime.BridgeContext;
import org.fastflowj.core.runtime.BridgeNode;
import org.fastflowj.core.runtime.Chunk;
import org.fastflowj.core.runtime.IdleStrategy;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.serial.ItemCodec;

/**
 * Stands for a peer group in this group's graph: every edge from a node of that group to a local node
 * starts here. Takes the batches the event loop received, deserializes them on its own thread and puts
 * the items on the local channel of their edge, a {@link Chunk} per channel per batch (one hand-off
 * instead of one per item; the consumer's run-time unrolls it), waiting while that channel is full (and
 * so holding back the acknowledgement, which stops the sender: flow control end to end).
 *
 * <pre>
 *   group G1 ──TCP──▶ event loop ──SPSC──▶ ┌──────────────┐ ──SPSC──▶ local node (edge e3)
 *                     (batches)            │ ff-recv-G1   │ ──SPSC──▶ local node (edge e4, feedback)
 *                     ◀── ACK, GONE ────── └──────────────┘
 * </pre>
 *
 * <p>An EOS message ends its forward channel (the consumer's {@code eosNotify} for that channel, as in
 * one process); a DONE message ends its feedback channel. A TASK_DONE message puts an ordered farm's
 * per-task mark on its channel, after that task's items: the collector then reads a remote worker's
 * outputs task by task, in the order its emitter recorded. The node ends once every edge ended. A local
 * consumer that ended is reported to the sender (GONE), so the remote producer stops as it would in one
 * process.
 *
 * <p>Memory: besides the credits ({@link InboundLink}), the items on the forward channels are bounded in
 * serialized bytes ({@code maxBufferedBytesPerLink}, counted by {@link ChannelBytes}): before a run of
 * items would pass the bound, the receiver waits for the consumers to take some.
 *
 * <p>On-demand edges: their items go to the worker one by one, and the receiver reports how many the worker
 * took (TAKEN, from how many are still queued), so the sender lets the producer give that worker more (see
 * {@link SenderNode}). While such items wait, it parks for at most {@link #TAKEN_CHECK_NANOS}.
 *
 * <p>Recovery: an output of a recoverable farm's remote worker settles the worker's oldest unanswered item
 * in its {@link RecoveryLedger}; an output of a recoverable all-to-all's remote R-Worker comes after the
 * tag of its item, which settles that item, or drops the output when it was answered already.
 *
 * <p>Threading: its own node thread (a source: the run-time calls {@code svc} until it returns EOS); it
 * parks on the link while no batch is queued.
 */
final class ReceiverNode extends MultiOutputNode<Object, Object> implements BridgeNode {
    /** The longest park while waiting for consumers to take items: nobody wakes the receiver for that. */
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * Items of one batch for one channel go to it as one {@link Chunk} (one hand-off, not one per item),
     * up to this many serialized bytes per chunk. A chunk takes one channel slot, so this bounds what a
     * full channel holds to what it holds of 64 KiB items sent alone: a slow consumer's heap stays bounded.
     */
    static final int CHUNK_MAX_BYTES = 16 * 1024;
    /** At most this many batches are acknowledged by one ACK (see {@link #svc}). */
    static final int MAX_UNACKED_BATCHES = 8;
    /**
     * With no batch queued, the receiver yields this many times before it acknowledges what it read and
     * parks. The next batch is often on its way: taking it within those yields saves an ACK frame (a task
     * and a wake-up of each side's event loop) and a park and unpark per batch, which is about a quarter
     * of the CPU per item for 8 B items at batch 128 (NetThroughput); acknowledging before the yields
     * would give that away. A sender out of credits waits those few yields longer for them.
     */
    static final int IDLE_YIELDS = 4;
    /**
     * With items of an on-demand edge not yet taken by their worker, the receiver looks this often for the
     * worker having taken them: the remote producer gives that worker nothing more until it hears.
     */
    static final long TAKEN_CHECK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final InboundLink in;
    private final int[] forwardEdges;
    private final int[] feedbackEdges;
    /** Edge id to output: channel * 2 (+1 for feedback), or -1 for an edge that does not come here. */
    private final int[] outputOf;

    /**
     * Per output (as in {@link #outputOf}): the items of the current batch not sent yet, as a chunk being
     * filled or (while there is only one) the item alone, and their serialized bytes.
     */
    private final Chunk[] open;

    private final Object[] single;

    private final int[] openBytes;
    private final int chunkCapacity;
    /** Per forward channel: whether its edge is on-demand. */
    private final boolean[] onDemand;
    /**
     * Per forward channel: whether it feeds an ordered farm's collector, which takes from its channels in
     * task order: waiting for room there could hold back the items it waits for behind them.
     */
    private final boolean[] toOrderedCollector;
    /** The forward channels whose edge is on-demand. */
    private final int[] onDemandChannels;
    /** Per forward channel: on-demand items put on it and not yet reported taken. */
    private final int[] untaken;

    private int untakenTotal;
    /** What the forward channels hold, in serialized bytes: bounded by {@code maxBufferedBytesPerLink}. */
    private final ChannelBytes onChannels;

    private final boolean[] ended;
    private final boolean[] goneReported;
    private final long connectDeadlineNanos;
    private final SerializationConfig serialization;
    private BridgeContext context;
    private ItemCodec codec;
    private int live;
    /** How this thread waits on its link (by the run's wait strategy), and for room on its channels. */
    private IdleStrategy linkIdle;

    private IdleStrategy roomIdle;
    /** Parked on the link since the last batch: its neighbours were woken then. */
    private boolean idleSinceBatch;
    /** Yields since the last batch (see {@link #IDLE_YIELDS}). */
    private int idleYields;
    /** Batches read since the last ACK, and their bytes. */
    private int unackedBatches;

    private long unackedBytes;
    private long unackedMessages;
    /** Per output (as in {@link #outputOf}): the ledger its items answer (a recoverable farm's worker), or null. */
    private RecoveryLedger[] answers;
    /** Per output: for a remote R-Worker's tagged outputs, the ledger of each of its input channels; or null. */
    private RecoveryLedger[][] byTag;

    ReceiverNode(
            InboundLink in,
            int[] forwardEdges,
            int[] feedbackEdges,
            boolean[] onDemand,
            boolean[] toOrderedCollector,
            long connectTimeoutMs,
            int batchSize,
            SerializationConfig serialization) {
        this.in = in;
        this.forwardEdges = forwardEdges;
        this.feedbackEdges = feedbackEdges;
        int maxEdge = Math.max(
                Arrays.stream(forwardEdges).max().orElse(0),
                Arrays.stream(feedbackEdges).max().orElse(0));
        this.outputOf = new int[maxEdge + 1];
        Arrays.fill(outputOf, -1);
        for (int i = 0; i < forwardEdges.length; i++) {
            outputOf[forwardEdges[i]] = i * 2;
        }
        for (int i = 0; i < feedbackEdges.length; i++) {
            outputOf[feedbackEdges[i]] = i * 2 + 1;
        }
        this.ended = new boolean[forwardEdges.length + feedbackEdges.length];
        this.open = new Chunk[ended.length * 2];
        this.single = new Object[open.length];
        this.openBytes = new int[open.length];
        this.chunkCapacity = Math.max(1, Math.min(batchSize, 1024));
        this.onDemand = onDemand;
        this.toOrderedCollector = toOrderedCollector;
        this.onDemandChannels =
                IntStream.range(0, onDemand.length).filter(i -> onDemand[i]).toArray();
        this.untaken = new int[onDemand.length];
        this.onChannels = new ChannelBytes(forwardEdges.length);
        this.goneReported = new boolean[ended.length];
        this.live = ended.length;
        this.connectDeadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(connectTimeoutMs);
        this.serialization = serialization;
    }

    /** Before the run: per output ({@code channel * 2}, +1 for feedback), the ledger it answers, or null. */
    void recoverWith(RecoveryLedger[] ledgersOfOutputs) {
        this.answers = ledgersOfOutputs;
    }

    /**
     * Before the run: per output (numbered as in {@link #recoverWith}), for the outputs of a recoverable
     * all-to-all's remote R-Worker, the ledger of each of its input channels (its outputs come tagged).
     */
    void recoverTaggedWith(RecoveryLedger[][] ledgersOfTags) {
        this.byTag = ledgersOfTags;
    }

    /** Outputs as {@link #recoverWith} numbers them. */
    int outputSlots() {
        return open.length;
    }

    @Override
    public void attach(BridgeContext ctx) {
        this.context = ctx;
        this.linkIdle = ctx.newIdleStrategy();
        this.roomIdle = ctx.newIdleStrategy();
    }

    @Override
    protected void svcInit() {
        codec = new ItemCodec(serialization);
    }

    @Override
    protected Object svc(Object none) {
        // Up to 64 KiB a batch is in heap memory, where the frame decoder copied it (see FrameDecoder).
        ByteBuf batch = in.poll();
        if (batch == null) {
            if (idleYields < IDLE_YIELDS) {
                idleYields++;
                Thread.yield();
                return goOn();
            }
            if (unackedBatches > 0) {
                acknowledge(); // never idle on credits the sender is waiting for
            }
            idle();
            return live == 0 ? eos() : goOn(); // (the peer was lost, see idle)
        }
        idleYields = 0;
        idleSinceBatch = false;
        linkIdle.reset();
        int batchBytes = batch.readableBytes();
        unackedBytes += batchBytes;
        codec.startBatch(); // as the sender did before writing it
        try {
            while (batch.isReadable()) {
                unackedMessages += readMessage(batch);
            }
            sendOpenChunks();
        } finally {
            batch.release();
        }
        in.batchRead(batchBytes, onChannels.refresh(context));
        if (untakenTotal > 0) {
            reportTaken();
        }
        unackedBatches++;
        // Not only when idle: an endless remote producer keeps this node busy with items it now drops,
        // and only the GONE note stops it.
        reportGoneConsumers();
        if (live == 0) {
            answersOver(); // every worker behind this peer ended: nothing more can answer
            in.done(); // before the acknowledgement: the sender closes once it has it
            acknowledge();
            return eos();
        }
        // One ACK for every batch taken while more were queued (up to MAX_UNACKED_BATCHES): each ACK is a
        // frame and a task on the event loop, and a receiver that is behind would otherwise pay one per
        // batch just when it can least afford it. The queue holds only batches the sender had credits
        // for, so it empties, and the ACK goes, within that many batches: no deadlock, and the sender gets
        // its credits back in chunks of at most MAX_UNACKED_BATCHES.
        if (unackedBatches >= MAX_UNACKED_BATCHES || !in.hasBatch()) {
            acknowledge();
        }
        return goOn();
    }

    private void acknowledge() {
        in.ack(unackedBatches, unackedBytes, unackedMessages);
        unackedBatches = 0;
        unackedBytes = 0;
        unackedMessages = 0;
    }

    /** Reads one message (a run of items, or an end mark); returns how many messages it stood for. */
    private int readMessage(ByteBuf batch) {
        byte kind = batch.readByte();
        int edge = batch.readInt();
        int output = edge >= 0 && edge < outputOf.length ? outputOf[edge] : -1;
        if (output < 0) {
            throw new CorruptBatchException("group " + in.peer + " sent a message for edge " + edge
                    + ", which does not come to this group from it");
        }
        int channel = output >> 1;
        boolean feedback = (output & 1) != 0;
        switch (kind) {
            case Frames.DATA -> {
                int items = batch.readInt();
                if (items < 1) {
                    throw new CorruptBatchException(
                            "group " + in.peer + " sent a run of " + items + " items for edge " + edge);
                }
                if (byTag != null && byTag[output] != null) {
                    readTaggedRun(batch, output, items, byTag[output]);
                    return items;
                }
                RecoveryLedger answered = answers == null ? null : answers[output];
                for (int i = 0; i < items; i++) {
                    int start = batch.readerIndex();
                    Object item = codec.read(batch);
                    if (answered != null) {
                        answered.answered(); // this output settles the worker's oldest unanswered item
                    }
                    addToChunk(output, item, batch.readerIndex() - start);
                }
                return items;
            }
            case Frames.TASK_DONE -> {
                if (feedback) {
                    throw new CorruptBatchException("group " + in.peer + " sent a task mark for feedback edge " + edge);
                }
                sendChunk(output); // the task's outputs go first, in a chunk of their own
                context.taskDone(channel);
                return 1;
            }
            case Frames.EOS, Frames.DONE -> {
                sendChunk(output); // what came before the end goes first
                end(channel, feedback);
                return 1;
            }
            default -> throw new CorruptBatchException(
                    "group " + in.peer + " sent a message of unknown kind " + kind + " for edge " + edge);
        }
    }

    /**
     * A run of a recoverable all-to-all's remote R-Worker's outputs, each after the tag of the item it
     * answers (its L-Worker, as the R-Worker's input channel, and its sequence there): the tag settles that
     * item in its ledger, and an output for an item already answered is dropped here, before the consumer.
     */
    private void readTaggedRun(ByteBuf batch, int output, int items, RecoveryLedger[] ledgerOfChannel) {
        for (int i = 0; i < items; i++) {
            int start = batch.readerIndex();
            long tag = batch.readLong();
            Object item = codec.read(batch);
            int channel = TakeOrder.channelOf(tag);
            if (channel >= ledgerOfChannel.length) {
                throw new CorruptBatchException("group " + in.peer + " sent an output for the item of input channel "
                        + channel + ", but its R-Worker has " + ledgerOfChannel.length);
            }
            if (ledgerOfChannel[channel].answer(TakeOrder.sequenceOf(tag))) {
                addToChunk(output, item, batch.readerIndex() - start);
            }
        }
    }

    /**
     * Adds an item to the output's pending run. The first item waits alone (a batch often holds one item
     * per channel, e.g. with {@code batchSize} 1, and that needs no chunk); a chunk is made for the second.
     */
    private void addToChunk(int output, Object item, int bytes) {
        Chunk chunk = open[output];
        if (chunk == null) {
            Object first = single[output];
            if (first == null) {
                single[output] = item;
                openBytes[output] = bytes;
                if (chunkCapacity == 1 || bytes >= CHUNK_MAX_BYTES || ((output & 1) == 0 && onDemand[output >> 1])) {
                    sendChunk(output);
                }
                return;
            }
            single[output] = null;
            chunk = open[output] = new Chunk(chunkCapacity);
            chunk.add(first);
        }
        chunk.add(item);
        openBytes[output] += bytes;
        if (chunk.isFull() || openBytes[output] >= CHUNK_MAX_BYTES) {
            sendChunk(output);
        }
    }

    /** End of a batch: every pending run goes out (a run never waits for the next batch). */
    private void sendOpenChunks() {
        for (int output = 0; output < open.length; output++) {
            if (open[output] != null || single[output] != null) {
                sendChunk(output);
            }
        }
    }

    /** Sends the output's pending run, if any: a chunk, or a single item alone. */
    private void sendChunk(int output) {
        Object sent = open[output] != null ? open[output] : single[output];
        if (sent == null) {
            return;
        }
        int bytes = openBytes[output];
        open[output] = null;
        single[output] = null;
        openBytes[output] = 0;
        int channel = output >> 1;
        if ((output & 1) != 0) {
            sendFeedbackTo(sent, channel); // unbounded, as in one process: a loop must never wait on itself
        } else if (toOrderedCollector[channel]) {
            sendOutTo(sent, channel); // unbounded, not counted: the farm's maxInFlight bounds it (see Executor)
        } else {
            if (onChannels.total() + bytes > in.maxBufferedBytes) {
                awaitRoomOnChannels(bytes);
            }
            sendOutTo(sent, channel);
            onChannels.sent(channel, bytes);
            if (onDemand[channel]) {
                untaken[channel]++; // one item: an on-demand edge's items go one by one (addToChunk)
                untakenTotal++;
            }
        }
    }

    /**
     * Waits until the consumers took enough for {@code bytes} more to stay within {@code
     * maxBufferedBytesPerLink} (or took everything: a bigger run goes alone). The batch's ACK waits too, so
     * the sender stops once its credits are spent.
     */
    private void awaitRoomOnChannels(int bytes) {
        boolean neighboursWoken = false;
        roomIdle.reset();
        while (true) {
            long held = onChannels.refresh(context);
            in.channelBytes(held);
            if (held == 0 || held + bytes <= in.maxBufferedBytes || context.cancelled()) {
                return;
            }
            if (!neighboursWoken) {
                context.wakeWaitingNeighbours(); // a consumer parked with items waiting must take them
                neighboursWoken = true;
            }
            roomIdle.idleAtMost(MAX_PARK_NANOS);
        }
    }

    /** Tells the sender how many items of each on-demand edge their worker took since the last report. */
    private void reportTaken() {
        for (int channel : onDemandChannels) {
            int waiting = untaken[channel];
            if (waiting == 0) {
                continue;
            }
            // The worker's queue may read as fuller than it is (its consumer index is read late), never
            // emptier: a report is late at worst, never early.
            int taken = waiting - Math.min(waiting, context.outputQueued(channel, false));
            if (taken > 0) {
                untaken[channel] -= taken;
                untakenTotal -= taken;
                in.taken(forwardEdges[channel], taken);
            }
        }
    }

    private void end(int channel, boolean feedback) {
        int index = feedback ? forwardEdges.length + channel : channel;
        if (!ended[index]) {
            ended[index] = true;
            live--;
            context.endOutput(channel, feedback);
        }
    }

    /** No batch queued: report consumers that ended, check the link, park a little (growing to 1 ms). */
    private void idle() {
        if (in.lostReason() != null) {
            endLostPeer();
            return;
        }
        reportGoneConsumers();
        String broken = in.brokenReason();
        if (broken != null) {
            throw new PeerLostException(broken);
        }
        if (!in.isOpen() && System.nanoTime() - connectDeadlineNanos > 0) {
            throw new PeerLostException("group " + in.peer + " did not connect within the connect timeout:"
                    + " is it running, and is its config the same as this one?");
        }
        if (!idleSinceBatch) { // the first park since the last batch: its items must not wait for ours
            context.wakeWaitingNeighbours();
            idleSinceBatch = true;
        }
        if (untakenTotal > 0) {
            reportTaken();
        }
        if (in.readingPaused()) { // paused for the bytes on the channels: their consumers may have taken some
            in.channelBytes(onChannels.refresh(context));
        }
        linkIdle.idle(in.parker, in.ready, untakenTotal > 0 ? TAKEN_CHECK_NANOS : Long.MAX_VALUE);
    }

    /**
     * The peer (a group of recoverable farms' workers) is lost and the run goes on: what arrived from it was
     * taken, so its workers' answers are over (their unanswered items go to other workers), and its edges
     * end here as if it had ended them.
     */
    private void endLostPeer() {
        answersOver();
        for (int i = 0; i < forwardEdges.length; i++) {
            end(i, false);
        }
        for (int i = 0; i < feedbackEdges.length; i++) {
            end(i, true);
        }
    }

    private void answersOver() {
        if (answers != null) {
            for (RecoveryLedger ledger : answers) {
                if (ledger != null) {
                    ledger.answersOver();
                }
            }
        }
        if (byTag != null) {
            for (RecoveryLedger[] ledgers : byTag) {
                if (ledgers != null) {
                    for (RecoveryLedger ledger : ledgers) {
                        ledger.answersOver();
                    }
                }
            }
        }
    }

    private void reportGoneConsumers() {
        for (int i = 0; i < forwardEdges.length; i++) {
            if (!goneReported[i] && !ended[i] && context.outputGone(i, false)) {
                goneReported[i] = true;
                in.gone(forwardEdges[i]);
                untakenTotal -= untaken[i]; // never taken now; GONE frees the sender's window for good
                untaken[i] = 0;
            }
        }
    }

    @Override
    public String toString() {
        return "receiver from group " + in.peer;
    }
}
