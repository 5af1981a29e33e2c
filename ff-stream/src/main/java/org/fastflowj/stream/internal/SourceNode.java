package org.fastflowj.stream.internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.function.Consumer;
import org.fastflowj.core.Node;
import org.fastflowj.core.checkpoint.Checkpointed;
import org.fastflowj.stream.Source;
import org.fastflowj.stream.SourceReader;

/**
 * One instance of a source: each call hands out a batch of records (without a time), and when the
 * source is exhausted it sends {@link Mark#END} and ends the stream. Between batches it sends a
 * {@link Signal#TICK} whenever {@link Signal#TICK_MILLIS} passed since the last one.
 */
public final class SourceNode extends Node<Void, Object> implements Checkpointed {
    private static final long TICK_NANOS = Signal.TICK_MILLIS * 1_000_000;

    private final Source<?> source;
    private final OperatorInfo info;
    private Consumer<Object> emit = value -> sendOut(new Rec(value, Rec.NO_TIMESTAMP));
    /** The first operator fused after the source, given its records directly; null: the node's output. */
    private OperatorNode next;

    /** Volatile: {@link #checkpointCompleted} reads it on the checkpoint thread. */
    private volatile SourceReader<?> reader;

    private long nextTick;

    public SourceNode(Source<?> source, OperatorInfo info) {
        this.source = source;
        this.info = info;
    }

    /** Hands the records straight to {@code following}, fused into the same thread (see {@link OperatorNode#chainTo}). */
    public void chainTo(OperatorNode following) {
        next = following;
        emit = value -> following.record(value, Rec.NO_TIMESTAMP);
    }

    @Override
    protected void svcInit() throws Exception {
        try {
            reader = source.open(info.instance(), info.instances());
        } catch (Exception e) {
            throw new RecordFailure(info.qualifiedName(), "opening", e);
        }
    }

    @Override
    protected Object svc(Void none) throws Exception {
        boolean more;
        try {
            more = reader.emit(emit);
        } catch (RecordFailure e) {
            throw e;
        } catch (Exception e) {
            throw new RecordFailure(info.qualifiedName(), "reading", e);
        }
        if (more) {
            // One clock read per batch the reader hands out, not per record.
            long now = System.nanoTime();
            if (now - nextTick >= 0) {
                nextTick = now + TICK_NANOS;
                if (next != null) {
                    next.signal(Signal.TICK);
                } else {
                    sendOut(Signal.TICK);
                }
            }
            return goOn();
        }
        reader.close();
        if (next != null) {
            next.watermark(Long.MAX_VALUE);
        } else {
            sendOut(Mark.END);
        }
        return eos();
    }

    /**
     * Where the reader is: a checkpoint's barrier leaves a source between two batches. Before the run
     * (the state a restart from the beginning takes) there is no reader yet: the one opened reads from
     * the start.
     */
    @Override
    public void snapshot(long checkpointId, DataOutput out) throws IOException {
        out.writeBoolean(reader != null);
        if (reader != null) {
            reader.savePosition(checkpointId, out);
        }
    }

    @Override
    public void checkpointCompleted(long id) {
        SourceReader<?> r = reader;
        if (r != null) {
            r.checkpointCompleted(id);
        }
    }

    @Override
    public void restore(DataInput in) throws IOException {
        if (in.readBoolean()) {
            reader.seek(in);
        }
    }

    @Override
    public boolean replays() {
        return source.replayable();
    }

    @Override
    public String toString() {
        return "source " + info.name();
    }
}
