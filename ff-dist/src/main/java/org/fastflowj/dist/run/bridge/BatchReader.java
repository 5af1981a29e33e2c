package org.fastflowj.dist.run.bridge;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.run.link.CorruptBatchException;
import org.fastflowj.dist.run.recovery.RecoveryLedger;
import org.fastflowj.dist.run.recovery.TakeOrder;
import org.fastflowj.dist.serial.ItemCodec;

/**
 * Decodes the batches a {@link ReceiverTask} takes from one peer into what each local output gets: items
 * (deserialized, with their serialized size), task marks, checkpoints' barriers and ends, in batch order.
 * Outputs are numbered {@code channel * 2}, {@code + 1} for a feedback channel. A message for an edge that
 * does not come here from that peer, a run of fewer than one item, a task mark or a barrier on feedback or
 * an unknown kind is a {@link CorruptBatchException}.
 *
 * <p>Recovery: an output of a recoverable farm's remote worker settles the worker's oldest unanswered item
 * in its {@link RecoveryLedger}; an output of a recoverable all-to-all's remote R-Worker comes after the
 * tag of its item, which settles that item, or drops the output when it was answered already.
 *
 * <p>A batch may be read in parts: an output that cannot take more (its channel is full) calls {@link
 * #pause} from within {@link Outputs}, {@link #readOn} returns after that item or mark, and the next call
 * goes on from there, in the same DATA run if need be. Nothing is copied or allocated for it.
 *
 * <p>Threading: the receiver's thread only.
 */
final class BatchReader {
    /** What a batch holds for the local outputs, in its order. */
    interface Outputs {
        /** An item for {@code output}, {@code bytes} long serialized. */
        void item(int output, Object item, int bytes);

        /** An ordered farm's per-task mark for forward {@code output}, after that task's items. */
        void taskDone(int output);

        /** Checkpoint {@code id}'s barrier for forward {@code output}, after the items sent there before it. */
        void barrier(int output, long id);

        /** {@code output}'s remote producer ended (EOS for a forward edge, DONE for a feedback one). */
        void ended(int output);
    }

    private final String peer;
    private final ItemCodec codec;
    /** Edge id to output, or -1 for an edge that does not come here. */
    private final int[] outputOf;
    /** Per output: the ledger its items answer (a recoverable farm's worker), or null. */
    private RecoveryLedger[] answers;
    /** Per output: for a remote R-Worker's tagged outputs, the ledger of each of its input channels; or null. */
    private RecoveryLedger[][] byTag;

    /** Set by an output during {@link #readOn}: it returns after the item or mark being reported. */
    private boolean paused;
    /** Messages of the batch read so far. */
    private long messages;
    /** The DATA run being read: its output, items left, and the ledgers its items settle (or null). */
    private int runOutput;

    private int runLeft;
    private RecoveryLedger runAnswered;
    private RecoveryLedger[] runByTag;

    BatchReader(String peer, int[] forwardEdges, int[] feedbackEdges, ItemCodec codec) {
        this.peer = peer;
        this.codec = codec;
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
    }

    void answers(RecoveryLedger[] ledgersOfOutputs) {
        this.answers = ledgersOfOutputs;
    }

    void answersByTag(RecoveryLedger[][] ledgersOfTags) {
        this.byTag = ledgersOfTags;
    }

    /** Starts reading a batch ({@link #readOn}). */
    void start() {
        codec.startBatch(); // as the sender did before writing it
        messages = 0;
        runLeft = 0;
        paused = false;
    }

    /**
     * Reads on in the batch into {@code outputs}: true once it was read to the end, false if an output
     * paused the reading (call again, with the same batch, to go on).
     */
    boolean readOn(ByteBuf batch, Outputs outputs) {
        paused = false;
        while (!paused) {
            if (runLeft > 0) {
                readRun(batch, outputs);
            } else if (batch.isReadable()) {
                readMessage(batch, outputs);
            } else {
                return true;
            }
        }
        return false;
    }

    /** Called by an output during {@link #readOn}: stop after what is being reported. */
    void pause() {
        paused = true;
    }

    /** How many messages the batch read so far stood for. */
    long messages() {
        return messages;
    }

    /** Reads the head of one message (a run of items, or a mark), and a mark (or a barrier) whole. */
    private void readMessage(ByteBuf batch, Outputs outputs) {
        byte kind = batch.readByte();
        int edge = batch.readInt();
        int output = edge >= 0 && edge < outputOf.length ? outputOf[edge] : -1;
        if (output < 0) {
            throw new CorruptBatchException("group " + peer + " sent a message for edge " + edge
                    + ", which does not come to this group from it");
        }
        switch (kind) {
            case Frames.DATA -> {
                int items = batch.readInt();
                if (items < 1) {
                    throw new CorruptBatchException(
                            "group " + peer + " sent a run of " + items + " items for edge " + edge);
                }
                messages += items;
                runOutput = output;
                runLeft = items;
                runByTag = byTag == null ? null : byTag[output];
                runAnswered = runByTag != null || answers == null ? null : answers[output];
            }
            case Frames.TASK_DONE -> {
                refuseOnFeedback(output, "a task mark", edge);
                messages++;
                outputs.taskDone(output);
            }
            case Frames.BARRIER -> {
                refuseOnFeedback(output, "a checkpoint barrier", edge);
                long id = batch.readLong();
                messages++;
                outputs.barrier(output, id);
            }
            case Frames.EOS, Frames.DONE -> {
                messages++;
                outputs.ended(output);
            }
            default -> throw new CorruptBatchException(
                    "group " + peer + " sent a message of unknown kind " + kind + " for edge " + edge);
        }
    }

    /** Task marks go from a worker to its collector, and a run with checkpoints has no loops. */
    private void refuseOnFeedback(int output, String what, int edge) {
        if ((output & 1) != 0) {
            throw new CorruptBatchException("group " + peer + " sent " + what + " for feedback edge " + edge);
        }
    }

    /** The items left of the DATA run, until it ends or an output pauses the reading. */
    private void readRun(ByteBuf batch, Outputs outputs) {
        int output = runOutput;
        if (runByTag != null) {
            readTaggedRun(batch, output, runByTag, outputs);
            return;
        }
        RecoveryLedger answered = runAnswered;
        while (runLeft > 0 && !paused) {
            runLeft--;
            int start = batch.readerIndex();
            Object item = codec.read(batch);
            if (answered != null) {
                answered.answered(); // this output settles the worker's oldest unanswered item
            }
            outputs.item(output, item, batch.readerIndex() - start);
        }
    }

    /**
     * A run of a recoverable all-to-all's remote R-Worker's outputs, each after the tag of the item it
     * answers (its L-Worker, as the R-Worker's input channel, and its sequence there): the tag settles that
     * item in its ledger, and an output for an item already answered is dropped here, before the consumer.
     */
    private void readTaggedRun(ByteBuf batch, int output, RecoveryLedger[] ledgerOfChannel, Outputs outputs) {
        while (runLeft > 0 && !paused) {
            runLeft--;
            int start = batch.readerIndex();
            long tag = batch.readLong();
            Object item = codec.read(batch);
            int channel = TakeOrder.channelOf(tag);
            if (channel >= ledgerOfChannel.length) {
                throw new CorruptBatchException("group " + peer + " sent an output for the item of input channel "
                        + channel + ", but its R-Worker has " + ledgerOfChannel.length);
            }
            if (ledgerOfChannel[channel].answer(TakeOrder.sequenceOf(tag))) {
                outputs.item(output, item, batch.readerIndex() - start);
            }
        }
    }
}
