package org.fastflowj.dist.run.bridge;

import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.fastflowj.core.runtime.bridge.BridgeChannels;
import org.fastflowj.core.runtime.bridge.BridgeTask;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.run.link.OutboundLink;
import org.fastflowj.dist.run.recovery.RecoveryLedger;
import org.fastflowj.dist.run.recovery.TakeOrder;
import org.fastflowj.dist.serial.ItemCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stands for a peer group in this group's graph: every edge from a local node to a node of that group
 * ends here. An engine task ({@link BridgeTask}) on its own thread: it drains its input channels,
 * serializes what it takes into batches of {@code batchSize} messages ({@link BatchWriter}, sized by a
 * {@link BatchSizer}: fixed, or by the observed rate), and sends each batch when it is full, when an
 * on-demand item needs to go at once, or when its inputs run dry and the batch is older than {@code
 * flushDelayMicros} (or the thread is about to park).
 *
 * <pre>
 *   local node ──SPSC──▶ ┌──────────────┐ serialize   batch of messages   credits
 *   local node ──SPSC──▶ │ ff-send-G2   │ ──────────▶ [DATA e7 item][EOS e9]... ──TCP──▶ group G2
 *   (forward, feedback)  └──────────────┘
 * </pre>
 *
 * <p>Input channel {@code i} is edge {@code forwardEdges[i]} of the whole graph (feedback: {@code
 * feedbackEdges[i]}). The end of a forward input becomes an EOS message for that edge; a feedback input
 * whose producer ended becomes a DONE message; an ordered farm's per-task mark from a worker becomes a
 * TASK_DONE message; a checkpoint's barrier becomes a BARRIER message, and its batch goes at once (the
 * checkpoint's alignment downstream waits for it). None of these is an item: no ledger, tag or on-demand
 * window counts them. Once every input ended it flushes, waits for every batch to be acknowledged, and is
 * done (the connection stays open until the whole application ended, {@code EndAgreement}).
 *
 * <p>Nothing here blocks. A batch the window has no credit for stays with the {@link BatchWriter}, sealed;
 * meanwhile the sender drains nothing (its inputs fill, and their producers wait as on a full channel),
 * {@link #doWork} returns 0 and the runner idles on its one parker, which the event loop wakes when
 * credits come back ({@link #workPending} then answers true). The last acknowledgements are waited for
 * the same way.
 *
 * <p>On-demand edges: a remote worker may have a window of items not taken yet ({@link OnDemandWindow}: from
 * one slot's worth up to what covers the round trip, as the receiver's reports show the worker waiting or
 * its items waiting; counted from when the sender sends one until the receiver reports the worker took it,
 * TAKEN); then the sender stops draining that input, and the
 * producer's dispatch, finding its slot full, gives the next items to workers with room, here or elsewhere,
 * as it skips a busy worker in one process. Without this, a remote worker's slot emptied as soon as the
 * sender took the item, and with every worker remote the items went out round-robin whatever the workers'
 * speed (FastFlow's tests/distributed/test_a2aOnDemand).
 *
 * <p>Recovery: an item to a recoverable farm's or all-to-all's remote worker is kept in that worker's
 * {@link RecoveryLedger} until answered; an output of a recoverable all-to-all's R-Worker in this group goes
 * with the tag of the item it answers ({@link TakeOrder}: 8 bytes before the item in its DATA run).
 *
 * <p>Threading: its own thread ({@code BridgeRunner}); the link's event loop returns credits and reports
 * (TAKEN, GONE), and closes, waking it through its runner's parker.
 */
public final class SenderTask implements BridgeTask, BridgeChannels.InputEvents {
    private static final Logger LOG = LoggerFactory.getLogger(SenderTask.class);
    private static final int MAX_INPUT_CHUNK = 1024;
    /** Items taken from one input before the next gets its turn. */
    private static final int TURN = 256;

    private final OutboundLink out;
    private final int[] forwardEdges;
    private final int[] feedbackEdges;
    /** Per forward input: how many items the remote on-demand worker may have untaken, or null: not on-demand. */
    private final OnDemandWindow[] onDemandWindow;
    /** The forward inputs that are on-demand. */
    private final int[] onDemandInputs;
    /** Per forward input: items sent on its on-demand edge that the remote worker has not taken yet. */
    private final int[] untaken;
    /** Per forward input: not drained while its remote on-demand worker has its window's worth. */
    private final boolean[] held;

    private boolean anyHeld;
    private BridgeChannels channels;
    private final BatchSizer batchSizer;
    private final long flushDelayNanos;
    private final int maxFrameBytes;
    private final SerializationConfig serialization;
    private long maxCachedBytesPerLink = DffConfig.DEFAULT_MAX_CACHED_BYTES_PER_LINK;
    private ItemCodec codec;
    private BatchWriter batch;
    /** Inputs whose end was not reported yet; done at 0. */
    private int liveInputs;
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
    /** Every input ended, the last batch went and every batch was acknowledged. */
    private boolean done;

    public SenderTask(
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
        for (int i = 0; i < onDemandSlots.length; i++) {
            onDemandWindow[i] = onDemandSlots[i] > 0 ? new OnDemandWindow(onDemandSlots[i]) : null;
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
        this.liveInputs = openEdges;
    }

    /**
     * Before the run: the macro data-flow parameter values the peer keeps from this group's tasks ({@code
     * maxCachedBytesPerLink} of the config, which both ends read alike).
     */
    public void maxCachedBytesPerLink(long max) {
        this.maxCachedBytesPerLink = max;
    }

    /** Before the run: per forward input, the ledger of the recoverable farm's worker it feeds (or null). */
    public void recoverWith(RecoveryLedger[] ledgersOfInputs) {
        this.ledgers = ledgersOfInputs;
        this.recovering = true;
    }

    /**
     * Before the run: per forward input, the take order of the recoverable all-to-all's R-Worker whose
     * outputs it carries (or null): each such output goes with the tag of the item it answers.
     */
    public void tagWith(TakeOrder[] tagsOfInputs) {
        this.tags = tagsOfInputs;
        this.recovering = true;
    }

    @Override
    public void init(BridgeChannels ch) {
        this.channels = ch;
        out.attach(ch);
        if (ledgers != null) {
            for (RecoveryLedger ledger : ledgers) {
                if (ledger != null) {
                    ledger.senderIs(Thread.currentThread());
                }
            }
        }
        codec = new ItemCodec(serialization, DffConfig.DEFAULT_MAX_OBJECTS_PER_ITEM, maxCachedBytesPerLink);
        batch = new BatchWriter(out, codec, batchSizer, maxFrameBytes);
    }

    /**
     * A batch's worth of items per slot of the input channels: when serializing is slower than producing,
     * the sender then takes them a chunk at a time, fewer channel operations per item (what counts for
     * small items); when it keeps up, it takes each item as it comes.
     */
    @Override
    public int inputChunkCapacity() {
        return Math.min(batchSizer.max(), MAX_INPUT_CHUNK);
    }

    /**
     * A batch waiting for credit first; then each input in turn: up to {@link #TURN} values, an on-demand
     * one only while its worker has room, none once a batch waits again; after the last input ended, the
     * last batch and the last acknowledgements.
     */
    @Override
    public int doWork() throws Exception {
        int work = 0;
        if (batch.hasPending()) {
            if (!batch.sendPending()) {
                if (anyHeld && out.onDemandNews()) {
                    collectTaken(); // what workPending answered true for: the news must not be left unread
                }
                return 0; // no credit: the runner idles until the event loop gives some back
            }
            work++;
            if (batch.messages() > 0 && batch.isFull() && !batch.flush()) {
                return work; // the batch split off before the one that went fills one of its own
            }
        }
        if (liveInputs == 0) {
            return work + finishStream();
        }
        for (int i = 0; i < forwardEdges.length && !batch.hasPending(); i++) {
            if (onDemandWindow[i] == null) {
                work += channels.drain(i, false, this, TURN);
            } else {
                for (int k = 0;
                        k < TURN && !held[i] && !batch.hasPending() && channels.drain(i, false, this, 1) > 0;
                        k++) {
                    work++;
                }
            }
        }
        for (int i = 0; i < feedbackEdges.length && !batch.hasPending(); i++) {
            work += channels.drain(i, true, this, TURN);
        }
        if (anyHeld && out.onDemandNews()) {
            collectTaken();
        }
        if (liveInputs == 0) {
            work += finishStream();
        }
        return work;
    }

    /** Every input ended: the last batch goes, then every batch must be acknowledged; 1 once all were. */
    private int finishStream() {
        if (!batch.flush() || !out.tryFinish()) {
            return 0;
        }
        done = true;
        return 1;
    }

    /**
     * The re-check before a park: what {@link #doWork} would act on. While a batch waits for credit that is
     * only credit back (or the link stopped) and on-demand news, not input: the inputs stay undrained.
     */
    @Override
    public boolean workPending() {
        if (batch.hasPending()) {
            return out.windowOpenOrStopped() || (anyHeld && out.onDemandNews());
        }
        if (liveInputs == 0) {
            return out.allAckedOrStopped();
        }
        for (int i = 0; i < forwardEdges.length; i++) {
            if (!held[i] && channels.hasInput(i, false)) {
                return true;
            }
        }
        for (int i = 0; i < feedbackEdges.length; i++) {
            if (channels.hasInput(i, true)) {
                return true;
            }
        }
        return anyHeld && out.onDemandNews();
    }

    @Override
    public boolean isDone() {
        return done;
    }

    /** Whether a batch waits for credit (for tests; the sender's thread). */
    boolean batchWaitsForCredit() {
        return batch != null && batch.hasPending();
    }

    /** Whether every input ended and the last batch went, and acknowledgements are due (for tests). */
    boolean awaitsLastAcks() {
        return liveInputs == 0 && !batch.hasPending() && !done;
    }

    @Override
    public void item(int channel, boolean feedback, Object item) {
        int edge = feedback ? feedbackEdges[channel] : forwardEdges[channel];
        if (recovering && !feedback) {
            itemRecoverable(item, channel, edge);
            return;
        }
        batch.item(item, edge);
        afterItem(feedback, channel);
        stopIfBatchWaits();
    }

    /** A batch waits for credit: the drain stops, nothing more is written until it went. */
    private void stopIfBatchWaits() {
        if (batch.hasPending()) {
            channels.stopDrain();
        }
    }

    /**
     * An item on an input of a recoverable farm or all-to-all: kept in its ledger until its worker answers
     * (to a remote worker), or sent with the tag of the item it answers (from a remote R-Worker).
     */
    private void itemRecoverable(Object item, int channel, int edge) {
        RecoveryLedger ledger = ledgers == null ? null : ledgers[channel];
        if (ledger != null) {
            if (out.lost()) { // the emitter put it there before it saw the worker gone: another worker takes it
                ledger.handBack(item);
                recoverLostWorkers();
                return;
            }
            ledger.record(item); // kept until the worker's output for it arrives
        }
        TakeOrder order = tags == null ? null : tags[channel];
        if (order == null) {
            batch.item(item, edge);
        } else {
            batch.taggedItem(item, edge, order.next());
        }
        afterItem(false, channel);
        stopIfBatchWaits();
    }

    /** After an item: an on-demand one goes at once, a full batch goes, and workers' reports are read. */
    private void afterItem(boolean feedback, int channel) {
        if (!feedback && onDemandWindow[channel] != null) {
            batch.flush();
            untaken[channel]++;
            holdIfRemoteWorkerFull(channel);
        } else if (batch.isFull()) {
            batch.flush();
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
        }
    }

    /** Counts the items remote workers took (TAKEN) and drains again the inputs whose workers have room. */
    private void collectTaken() {
        out.startCollecting(); // before reading the counts: a report after this sets it again
        long now = System.nanoTime();
        boolean stillHeld = false;
        for (int channel : onDemandInputs) {
            int taken = out.collectTaken(channel);
            int signals = out.collectSignals(channel);
            untaken[channel] -= taken;
            if (taken > 0 || signals != 0) {
                boolean heldBack = held[channel] && channels.hasInput(channel, false);
                onDemandWindow[channel].taken(taken, signals, heldBack, now);
            }
            if (held[channel] && (untaken[channel] < onDemandWindow[channel].window() || out.consumerGone(channel))) {
                held[channel] = false;
            }
            stillHeld |= held[channel];
        }
        anyHeld = stillHeld;
    }

    @Override
    public void inputEnded(int channel) {
        if (!out.lost()) { // a lost peer's batches are dropped, and its link may never have opened
            batch.mark(Frames.EOS, forwardEdges[channel]);
        }
        edgeEnded();
    }

    /** An ordered farm's per-task mark from a local worker: it follows that task's items to the collector. */
    @Override
    public void taskDone(int channel) {
        batch.mark(Frames.TASK_DONE, forwardEdges[channel]);
        if (batch.isFull()) {
            batch.flush();
        }
        stopIfBatchWaits();
    }

    /**
     * A checkpoint's barrier from a local node: it follows the items before it, and its batch goes now,
     * not when full: every consumer behind it stalls its alignment until the barrier comes. A batch that
     * finds no credit waits as any does.
     */
    @Override
    public void barrier(int channel, long id) {
        if (out.lost()) {
            return;
        }
        batch.barrier(forwardEdges[channel], id);
        batch.flush();
        stopIfBatchWaits();
    }

    @Override
    public void feedbackEnded(int channel) {
        if (!out.lost()) {
            batch.mark(Frames.DONE, feedbackEdges[channel]);
        }
        edgeEnded();
    }

    private void edgeEnded() {
        liveInputs--;
        if (--openEdges == 0) {
            out.allEndsWritten();
        }
    }

    @Override
    public void onIdle(boolean aboutToPark) {
        if (liveInputs == 0) {
            return; // only the last batch and acknowledgements are left: doWork sees to them
        }
        if (!batch.hasPending()) {
            batch.inputRanDry(); // not while a batch waits for credit: the inputs are full, not dry
        }
        if (batch.messages() > 0 && (aboutToPark || batch.olderThan(flushDelayNanos, System.nanoTime()))) {
            batch.flush();
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
                    channels.closeInput(i, false);
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

    /** Nothing left: {@link #doWork} sent the last batch and saw every batch acknowledged. */
    @Override
    public void close() {
        long inFull = codec.parameterValuesSentInFull();
        long references = codec.parameterReferencesSent();
        if (inFull + references > 0) {
            LOG.debug(
                    "to group {}: {} macro data-flow parameter value(s) sent in full, {} as references to what it kept",
                    out.peer,
                    inFull,
                    references);
        }
    }

    /** The run failed: the batch being built and any waiting for credit are dropped. */
    @Override
    public void abort() {
        if (batch != null) {
            batch.discard();
        }
    }

    @Override
    public String toString() {
        return "sender to group " + out.peer;
    }
}
