package org.fastflowj.dist.run.bridge;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.runtime.bridge.BridgeChannels;
import org.fastflowj.core.runtime.bridge.BridgeTask;
import org.fastflowj.core.runtime.channel.Chunk;
import org.fastflowj.core.spi.CheckpointBarrier;
import org.fastflowj.dist.ClassNotAllowedException;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.run.link.CorruptBatchException;
import org.fastflowj.dist.run.link.InboundLink;
import org.fastflowj.dist.run.link.PeerLostException;
import org.fastflowj.dist.run.recovery.RecoveryLedger;
import org.fastflowj.dist.serial.CorruptFrameException;
import org.fastflowj.dist.serial.ItemCodec;

/**
 * Stands for a peer group in this group's graph: every edge from a node of that group to a local node
 * starts here. An engine task ({@link BridgeTask}) on its own thread: it takes the batches the event loop
 * received, decodes them ({@link BatchReader}) and offers the items to the local channel of their edge, a
 * {@link Chunk} per channel per batch (one hand-off instead of one per item; the consumer's run-time
 * unrolls it), waiting while that channel is full (and so holding back the acknowledgement, which stops
 * the sender: flow control end to end).
 *
 * <p>Nothing here blocks: waiting means keeping the batch half read ({@link BatchReader#pause}) with the
 * run that found no room, returning 0 from {@link #doWork}, and letting the runner idle on its one parker,
 * announced as waiting for room on that channel ({@link BridgeChannels#awaitRoomOn}): the consumer's
 * takes wake it. While a batch is half read no other is taken; batches read before it are acknowledged.
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
 * outputs task by task, in the order its emitter recorded. A BARRIER message puts a checkpoint's barrier
 * on its channel, after the items before it (one object per checkpoint and edge); it is no item, so no
 * ledger settles and no on-demand count moves for it. The task is done once every edge ended. A local
 * consumer that ended is reported to the sender (GONE), so the remote producer stops as it would in one
 * process.
 *
 * <p>Memory: besides the credits ({@link InboundLink}), the items on the forward channels are bounded in
 * serialized bytes ({@code maxBufferedBytesPerLink}, counted by {@link ChannelBytes}): before a run of
 * items would pass the bound, the receiver waits for the consumers to take some (a poll: nobody signals
 * it, so the runner parks at most {@link #MAX_PARK_NANOS} then).
 *
 * <p>On-demand edges: their items go to the worker one by one, and the receiver reports how many the worker
 * took (TAKEN, from how many are still queued), so the sender lets the producer give that worker more (see
 * {@link SenderTask}), and whether, since the last report, the worker waited for an item or an item waited
 * for room in its channel, by which the sender sizes the worker's window ({@link OnDemandWindow}). While such
 * items wait, it parks for at most {@link #TAKEN_CHECK_NANOS}.
 *
 * <p>Threading: its own thread ({@code BridgeRunner}); the event loop queues batches on the link and wakes
 * it through its parker.
 */
public final class ReceiverTask implements BridgeTask, BatchReader.Outputs {
    /** The longest park while waiting for consumers to take items: nobody wakes the receiver for that. */
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * Items of one batch for one channel go to it as one {@link Chunk} (one hand-off, not one per item),
     * up to this many serialized bytes per chunk. A chunk takes one channel slot, so this bounds what a
     * full channel holds to what it holds of 64 KiB items sent alone: a slow consumer's heap stays bounded.
     */
    static final int CHUNK_MAX_BYTES = 16 * 1024;
    /** At most this many batches are acknowledged by one ACK (see {@link #doWork}). */
    static final int MAX_UNACKED_BATCHES = 8;
    /**
     * With no batch queued, the receiver yields this many times before it acknowledges what it read and
     * idles. The next batch is often on its way: taking it within those yields saves an ACK frame (a task
     * and a wake-up of each side's event loop) and a park and unpark per batch, a large part of the CPU
     * spent per item when items are tiny; acknowledging before the yields would give that away. A sender
     * out of credits waits those few yields longer for them.
     */
    static final int IDLE_YIELDS = 4;
    /**
     * With items of an on-demand edge not yet taken by their worker, the receiver looks this often for the
     * worker having taken them: the remote producer gives that worker nothing more until it hears.
     */
    static final long TAKEN_CHECK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private static final int NO_MARK = 0;
    private static final int TASK_MARK = 1;
    private static final int END_MARK = 2;
    private static final int BARRIER_MARK = 3;

    private final InboundLink in;
    private final int[] forwardEdges;
    private final int[] feedbackEdges;

    /**
     * Per output ({@code channel * 2}, +1 for feedback): the items of the current batch not sent yet, as a
     * chunk being filled or (while there is only one) the item alone, and their serialized bytes.
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
    /** Per forward channel: what its next TAKEN report signals ({@link OnDemandWindow#STARVED}, CROWDED). */
    private final int[] signals;
    /** Per forward channel: its consumer took an item before (its first wait is the stream's start). */
    private final boolean[] tookBefore;
    /** Per forward channel: its consumer's {@code inputWaits} when the last on-demand item was offered. */
    private final int[] lastInputWaits;
    /** What the forward channels hold, in serialized bytes: bounded by {@code maxBufferedBytesPerLink}. */
    private final ChannelBytes onChannels;
    /** Runs a forward channel holds of what was sent there, for {@link #onChannels}; made once. */
    private final ChannelBytes.Queued runsQueued = this::runsQueued;

    private final boolean[] ended;
    private final boolean[] goneReported;
    private final long connectDeadlineNanos;
    private final SerializationConfig serialization;
    private int maxObjectsPerItem = DffConfig.DEFAULT_MAX_OBJECTS_PER_ITEM;
    private long maxCachedBytesPerLink = DffConfig.DEFAULT_MAX_CACHED_BYTES_PER_LINK;
    private BridgeChannels channels;
    private BatchReader reader;
    private RecoveryLedger[] answers;
    private RecoveryLedger[][] byTag;
    private int live;
    private boolean done;
    /** The batch being read, kept (not released) while one of its runs or marks waits; null: none. */
    private ByteBuf current;
    /** Its payload bytes, as received. */
    private int currentBytes;
    /**
     * The output ({@code channel * 2}, +1 for feedback) whose run (in {@link #open} or {@link #single})
     * or mark waits for room; -1: none. At most one waits: the reading pauses behind it.
     */
    private int waitingOutput = -1;
    /**
     * What follows the waiting run on that output: {@link #NO_MARK}, {@link #TASK_MARK}, {@link #END_MARK}
     * or {@link #BARRIER_MARK}.
     */
    private int waitingMark;
    /** The barrier a {@link #BARRIER_MARK} stands for, until it is on its channel; null: none. */
    private CheckpointBarrier barrierToPut;
    /** The waiting run waits for the byte bound ({@link #onChannels}), not for a slot of its channel. */
    private boolean waitingForBytes;
    /** The neighbours were woken since a run started waiting (once per wait). */
    private boolean neighboursWoken;
    /** Idle since the last batch, and its neighbours woken then. */
    private boolean idleSinceBatch;
    /** Yields since the last batch (see {@link #IDLE_YIELDS}). */
    private int idleYields;
    /** Batches read since the last ACK, and their bytes. */
    private int unackedBatches;

    private long unackedBytes;
    private long unackedMessages;

    public ReceiverTask(
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
        this.signals = new int[onDemand.length];
        this.tookBefore = new boolean[onDemand.length];
        this.lastInputWaits = new int[onDemand.length];
        this.onChannels = new ChannelBytes(forwardEdges.length);
        this.goneReported = new boolean[ended.length];
        this.live = ended.length;
        this.connectDeadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(connectTimeoutMs);
        this.serialization = serialization;
    }

    /** Before the run: per output ({@code channel * 2}, +1 for feedback), the ledger it answers, or null. */
    public void recoverWith(RecoveryLedger[] ledgersOfOutputs) {
        this.answers = ledgersOfOutputs;
    }

    /**
     * Before the run: per output (numbered as in {@link #recoverWith}), for the outputs of a recoverable
     * all-to-all's remote R-Worker, the ledger of each of its input channels (its outputs come tagged).
     */
    public void recoverTaggedWith(RecoveryLedger[][] ledgersOfTags) {
        this.byTag = ledgersOfTags;
    }

    /** Before the run: the most objects one item from this peer may build ({@code maxObjectsPerItem}). */
    public void maxObjectsPerItem(int max) {
        this.maxObjectsPerItem = max;
    }

    /** Before the run: the parameter values this group keeps from the peer's tasks ({@code maxCachedBytesPerLink}). */
    public void maxCachedBytesPerLink(long max) {
        this.maxCachedBytesPerLink = max;
    }

    /** Outputs as {@link #recoverWith} numbers them. */
    public int outputSlots() {
        return open.length;
    }

    @Override
    public void init(BridgeChannels ch) {
        this.channels = ch;
        this.reader = new BatchReader(
                in.peer,
                forwardEdges,
                feedbackEdges,
                new ItemCodec(serialization, maxObjectsPerItem, maxCachedBytesPerLink));
        if (answers != null) {
            reader.answers(answers);
        }
        if (byTag != null) {
            reader.answersByTag(byTag);
        }
        in.wakeOn(ch.parker());
    }

    /**
     * What waits first (a run or mark, then the rest of its batch); else one new batch: its items onto the
     * channels, then an acknowledgement unless more batches are queued. Returns 0, holding the batch, as
     * soon as something finds no room.
     */
    @Override
    public int doWork() {
        int work = 0;
        if (waitingOutput >= 0) {
            if (!resumeWaiting()) {
                return 0;
            }
            work = 1;
        }
        if (current == null) {
            // A batch of a few KiB or less is in heap memory, where the frame decoder copied it; a bigger one
            // is usually a slice of the buffers it was read into, maybe several (see FrameDecoder).
            current = in.poll();
            if (current == null) {
                return work;
            }
            currentBytes = current.readableBytes();
            idleYields = 0;
            idleSinceBatch = false;
            reader.start();
        }
        if (!readOn()) {
            return 1; // part of it went; the rest waits for room
        }
        batchDone();
        return 1;
    }

    /** Reads on in the current batch and sends its runs; false if one waits for room (the batch stays). */
    private boolean readOn() {
        try {
            return readBatch(current) && sendOpenChunks();
        } catch (RuntimeException | Error e) {
            current.release();
            current = null;
            throw e;
        }
    }

    /** The current batch is read and its items are on the channels. */
    private void batchDone() {
        ByteBuf batch = current;
        current = null;
        int batchBytes = currentBytes;
        batch.release();
        unackedBytes += batchBytes;
        unackedMessages += reader.messages();
        in.batchRead(batchBytes, onChannels.refresh(runsQueued));
        if (untakenTotal > 0) {
            reportTaken();
        }
        unackedBatches++;
        // Not only when idle: an endless remote producer keeps this thread busy with items it now drops,
        // and only the GONE note stops it.
        reportGoneConsumers();
        if (live == 0) {
            answersOver(); // every worker behind this peer ended: nothing more can answer
            in.done(); // before the acknowledgement: the sender closes once it has it
            acknowledge();
            done = true;
            return;
        }
        // One ACK for every batch taken while more were queued (up to MAX_UNACKED_BATCHES): each ACK is a
        // frame and a task on the event loop, and a receiver that is behind would otherwise pay one per
        // batch just when it can least afford it. The queue holds only batches the sender had credits
        // for, so it empties, and the ACK goes, within that many batches: no deadlock, and the sender gets
        // its credits back in chunks of at most MAX_UNACKED_BATCHES.
        if (unackedBatches >= MAX_UNACKED_BATCHES || !in.hasBatch()) {
            acknowledge();
        }
    }

    /**
     * Whatever makes a batch unreadable is its sender's doing: the failure names that peer and its address
     * (and, as a {@link CorruptBatchException}, makes it the run's origin), not this group.
     */
    private boolean readBatch(ByteBuf batch) {
        try {
            return reader.readOn(batch, this);
        } catch (CorruptFrameException | ClassNotAllowedException | IndexOutOfBoundsException e) {
            throw unreadable(e);
        }
    }

    private CorruptBatchException unreadable(RuntimeException e) {
        String what = e instanceof IndexOutOfBoundsException ? "a truncated batch" : "an item this group cannot read";
        return new CorruptBatchException(
                describePeer() + " sent " + what + " (the peer is faulty or hostile): " + e.getMessage(), e);
    }

    private String describePeer() {
        return in.link() != null ? in.link().toString() : "group " + in.peer;
    }

    /**
     * The re-check before a park. While something waits for room, only room (a wake from the consumer;
     * the byte bound is polled, see {@link #maxParkNanos}) or a broken link: a new batch is not read
     * before the one half read.
     */
    @Override
    public boolean workPending() {
        if (waitingOutput >= 0) {
            return (!waitingForBytes && channels.hasRoom(waitingOutput >> 1, (waitingOutput & 1) != 0))
                    || in.brokenReason() != null;
        }
        return in.batchOrNews();
    }

    @Override
    public long maxParkNanos() {
        if (waitingOutput >= 0 && waitingForBytes) {
            return MAX_PARK_NANOS;
        }
        return untakenTotal > 0 ? TAKEN_CHECK_NANOS : Long.MAX_VALUE;
    }

    @Override
    public boolean isDone() {
        return done;
    }

    /** Whether a run or mark waits for room (for tests; the receiver's thread). */
    boolean waitsForRoom() {
        return waitingOutput >= 0;
    }

    /** Whether a checkpoint's barrier waits for room (for tests; the receiver's thread). */
    boolean barrierWaitsForRoom() {
        return waitingOutput >= 0 && waitingMark == BARRIER_MARK;
    }

    @Override
    public void close() {}

    /** The run failed: the batch half read and those queued are dropped. */
    @Override
    public void abort() {
        if (current != null) {
            current.release();
            current = null;
        }
        in.drop();
    }

    private void acknowledge() {
        in.ack(unackedBatches, unackedBytes, unackedMessages);
        unackedBatches = 0;
        unackedBytes = 0;
        unackedMessages = 0;
    }

    @Override
    public void item(int output, Object item, int bytes) {
        addToChunk(output, item, bytes);
    }

    @Override
    public void taskDone(int output) {
        // the task's outputs go first, in a chunk of their own
        if (sendChunk(output)) {
            markNow(output, TASK_MARK);
        } else {
            waitingMark = TASK_MARK;
        }
    }

    @Override
    public void barrier(int output, long id) {
        barrierToPut = new CheckpointBarrier(id);
        // the items before the barrier go first, in a chunk of their own
        if (sendChunk(output)) {
            markNow(output, BARRIER_MARK);
        } else {
            waitingMark = BARRIER_MARK;
        }
    }

    @Override
    public void ended(int output) {
        // what came before the end goes first
        if (sendChunk(output)) {
            markNow(output, END_MARK);
        } else {
            waitingMark = END_MARK;
        }
    }

    /** Puts the mark on the output now, or makes it wait for room there (the reading pauses). */
    private boolean markNow(int output, int mark) {
        int channel = output >> 1;
        boolean feedback = (output & 1) != 0;
        boolean put =
                switch (mark) {
                    case TASK_MARK -> channels.offerTaskDone(channel);
                    case BARRIER_MARK -> putBarrier(channel);
                    default -> end(channel, feedback);
                };
        if (!put) {
            waitForRoom(output, false);
            waitingMark = mark;
        }
        return put;
    }

    private boolean putBarrier(int channel) {
        if (!channels.offerBarrier(channel, barrierToPut)) {
            return false;
        }
        barrierToPut = null;
        return true;
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

    /** End of a batch: every pending run goes out (a run never waits for the next batch); false if one waits. */
    private boolean sendOpenChunks() {
        for (int output = 0; output < open.length; output++) {
            if ((open[output] != null || single[output] != null) && !sendChunk(output)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Sends the output's pending run, if any: a chunk, or a single item alone. False if it has to wait
     * (for a slot of its channel, or for the consumers to take enough bytes): it stays where it is, and
     * the reading pauses.
     */
    private boolean sendChunk(int output) {
        Object run = open[output] != null ? open[output] : single[output];
        if (run == null) {
            return true;
        }
        int bytes = openBytes[output];
        int channel = output >> 1;
        boolean feedback = (output & 1) != 0;
        // Feedback channels are unbounded, as in one process: a loop must never wait on itself. An ordered
        // farm's collector's are too, and not counted: the farm's maxInFlight bounds them (see Executor).
        boolean counted = !feedback && !toOrderedCollector[channel];
        if (counted && onChannels.total() + bytes > in.maxBufferedBytes && !roomForBytes(bytes)) {
            waitForRoom(output, true);
            return false;
        }
        // A worker that took everything it got and began a wait since the last item came waited for this one.
        boolean starved = false;
        if (counted && onDemand[channel]) {
            int waits = channels.consumerInputWaits(channel);
            starved = tookBefore[channel]
                    && waits != lastInputWaits[channel]
                    && channels.outputQueued(channel, false) == 0;
            lastInputWaits[channel] = waits;
        }
        if (!channels.offer(channel, feedback, run)) { // dropped, and true, if its consumer ended
            waitForRoom(output, false);
            return false;
        }
        open[output] = null;
        single[output] = null;
        openBytes[output] = 0;
        if (counted) {
            onChannels.sent(channel, bytes);
            if (onDemand[channel]) {
                untaken[channel]++; // one item: an on-demand edge's items go one by one (addToChunk)
                untakenTotal++;
                if (starved) {
                    signals[channel] |= OnDemandWindow.STARVED;
                }
            }
        }
        return true;
    }

    /**
     * The output's run or mark has to wait: the reading pauses behind it, and the runner's idle steps wait
     * for room on its channel (or, for bytes, poll). The batch's ACK waits too, so the sender stops once
     * its credits are spent.
     */
    private void waitForRoom(int output, boolean forBytes) {
        if (!forBytes && (output & 1) == 0 && onDemand[output >> 1]) {
            signals[output >> 1] |= OnDemandWindow.CROWDED; // an item more than the worker needed came
        }
        waitingOutput = output;
        waitingMark = NO_MARK;
        waitingForBytes = forBytes;
        if (forBytes) {
            channels.stopAwaitingRoom();
        } else {
            channels.awaitRoomOn(output >> 1, (output & 1) != 0);
        }
        reader.pause();
        if (!neighboursWoken) {
            channels.wakeWaitingNeighbours(); // a consumer parked with items waiting must take them
            neighboursWoken = true;
        }
    }

    /**
     * Tries what waits again: the run, then the mark after it. True once both went; false if one still
     * waits (or waits again).
     */
    private boolean resumeWaiting() {
        int output = waitingOutput;
        if (!waitingForBytes && !channels.hasRoom(output >> 1, (output & 1) != 0)) {
            return false; // not drained to the low-water mark yet: filling it again now would ping-pong
        }
        int mark = waitingMark;
        waitingOutput = -1;
        waitingMark = NO_MARK;
        channels.stopAwaitingRoom();
        if (!sendChunk(output)) {
            waitingMark = mark;
            return false;
        }
        if (mark != NO_MARK && !markNow(output, mark)) {
            return false;
        }
        neighboursWoken = false;
        return true;
    }

    /** Runs of what was sent on a forward channel still queued there; 0 once its consumer ended. */
    private int runsQueued(int channel) {
        return channels.outputGone(channel, false) ? 0 : channels.outputQueued(channel, false);
    }

    /**
     * Whether the consumers took enough for {@code bytes} more to stay within {@code
     * maxBufferedBytesPerLink} (or took everything: a bigger run goes alone).
     */
    private boolean roomForBytes(int bytes) {
        long held = onChannels.refresh(runsQueued);
        in.channelBytes(held);
        return held == 0 || held + bytes <= in.maxBufferedBytes || channels.cancelled();
    }

    /** Tells the sender how many items of each on-demand edge their worker took since the last report. */
    private void reportTaken() {
        for (int channel : onDemandChannels) {
            int waiting = untaken[channel];
            if (waiting == 0) {
                continue;
            }
            // The worker's queue may read as fuller than it is (its consumer index is read late, a barrier
            // queued there reads as an item), never emptier: a report is late at worst, never early.
            int taken = waiting - Math.min(waiting, channels.outputQueued(channel, false));
            if (taken > 0) {
                untaken[channel] -= taken;
                untakenTotal -= taken;
                in.taken(forwardEdges[channel], taken, signals[channel]);
                signals[channel] = 0;
                tookBefore[channel] = true;
            }
        }
    }

    /** Ends the output (EOS on a forward channel); false if that channel has no room for it now. */
    private boolean end(int channel, boolean feedback) {
        int index = feedback ? forwardEdges.length + channel : channel;
        if (!ended[index]) {
            if (!channels.tryEndOutput(channel, feedback)) {
                return false;
            }
            ended[index] = true;
            live--;
        }
        return true;
    }

    /**
     * No batch queued, or a run waits for room: after a few yields (see {@link #IDLE_YIELDS}), acknowledge
     * the batches read to the end, report consumers that ended and items taken, check the link; the runner
     * then idles one step.
     */
    @Override
    public void onIdle(boolean aboutToPark) {
        if (idleYields < IDLE_YIELDS && !aboutToPark) {
            idleYields++;
            Thread.yield();
            return;
        }
        if (unackedBatches > 0) {
            acknowledge(); // never idle on credits the sender is waiting for
        }
        if (in.lostReason() != null) {
            if (waitingOutput < 0 && current == null) { // what arrived goes first
                endLostPeer();
                if (live == 0) {
                    done = true;
                }
            }
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
        if (!idleSinceBatch) { // the first idle round since the last batch: its items must not wait for ours
            channels.wakeWaitingNeighbours();
            idleSinceBatch = true;
        }
        if (untakenTotal > 0) {
            reportTaken();
        }
        if (in.readingPaused()) { // paused for the bytes on the channels: their consumers may have taken some
            in.channelBytes(onChannels.refresh(runsQueued));
        }
    }

    /**
     * The peer (a group of recoverable farms' workers) is lost and the run goes on: what arrived from it was
     * taken, so its workers' answers are over (their unanswered items go to other workers), and its edges
     * end here as if it had ended them.
     */
    private void endLostPeer() {
        answersOver();
        for (int i = 0; i < forwardEdges.length; i++) {
            if (!end(i, false)) {
                waitForRoom(i * 2, false); // its EOS goes once there is room, the other ends after it
                waitingMark = END_MARK;
                return;
            }
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
            if (!goneReported[i] && !ended[i] && channels.outputGone(i, false)) {
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
