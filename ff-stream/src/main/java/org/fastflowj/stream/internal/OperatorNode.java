package org.fastflowj.stream.internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.fastflowj.core.Node;
import org.fastflowj.core.NodeCounter;
import org.fastflowj.core.checkpoint.IncrementalCheckpointed;

/**
 * The node that runs one operator instance: records go to the operator (a failing user function is
 * handed to the error policy), watermarks advance its time. It hands its output to the next operator
 * of its fused chain directly ({@link #chainTo}), or emits records as {@link Rec} and watermarks as
 * {@link Mark} to the node after it (a router, a sink) or to a channel.
 *
 * <p>Checkpoints: a {@link #snapshot} is the watermark, then whether the operator keeps state, then
 * its state objects ({@link StateCodec}). A {@link #snapshotChanges} is the watermark, then a kind
 * byte: {@link #WHOLE} and the rest of a snapshot (an operator whose state changes whole, a window's,
 * or one whose changes are not tracked: the change set replaces the state), or {@link #CHANGES} and
 * the objects of {@link Operator#saveChanges} (keyed state and timers: only the keys that changed,
 * each with its whole current value or its removal), so a checkpoint of a large keyed state costs what
 * changed, not what is kept.
 */
public final class OperatorNode extends Node<Object, Object> implements Output, IncrementalCheckpointed {
    /** A change set that holds the whole state, read as a snapshot's. */
    static final byte WHOLE = 0;
    /** A change set that holds the operator's changes, applied to the state restored before it. */
    static final byte CHANGES = 1;

    private final Operator operator;
    private final ErrorHandler errors;
    /** The next operator of the fused chain, given this one's output directly; null: the node's output. */
    private OperatorNode next;
    /** Made at the first checkpoint: most runs take none. */
    private StateCodec codec;
    /** The operator notes its changes ({@link #trackChanges} was called and it can). */
    private boolean incremental;

    public OperatorNode(Operator operator, OperatorInfo info, ErrorHandler errors) {
        this.operator = operator;
        this.errors = errors;
        operator.bind(this, info);
        // The counts this instance can make, shown with its node's statistics.
        if (operator instanceof WindowOperator || operator instanceof IntervalJoinOperator) {
            declare(info.counters().late());
        }
        NodeCounter policy = errors.counter(info.counters());
        if (policy != null) {
            declare(policy);
        }
    }

    @Override
    protected void svcInit() throws Exception {
        operator.info.counters().started().set(true);
        operator.open();
    }

    /**
     * Hands this operator's output straight to {@code following}, the next operator fused into the same
     * thread: no carrier per record, no pass through the combiner. Both stay nodes of the combiner, for
     * their lifecycle and counters; records, watermarks and signals reach {@code following} in the order
     * this operator emits them, as through the combiner.
     */
    public void chainTo(OperatorNode following) {
        next = following;
    }

    @Override
    protected Object svc(Object item) {
        if (item instanceof Rec rec) {
            record(rec.value, rec.timestamp);
        } else if (item instanceof Signal signal) {
            signal(signal);
        } else if (item instanceof SideRecord side) {
            emitSide(side);
        } else {
            watermark(((Mark) item).time);
        }
        return goOn();
    }

    /** A record for the operator; a failing user function goes to the error policy. */
    void record(Object value, long timestamp) {
        try {
            // One call site per stateless kind: each sees one class and is inlined, where a single site
            // for every operator of every chain would dispatch through a table at each stage.
            if (operator instanceof Operators.MapOperator map) {
                map.processRecord(value, timestamp);
            } else if (operator instanceof Operators.FilterOperator filter) {
                filter.processRecord(value, timestamp);
            } else {
                operator.processRecord(value, timestamp);
            }
        } catch (RecordFailure failure) {
            throw failure;
        } catch (Exception error) {
            try {
                errors.onFailure(this, operator.info, value, error);
            } catch (RecordFailure failure) {
                throw failure;
            } catch (Exception policyFailure) {
                throw new RecordFailure(operator.info.qualifiedName(), RecordFailure.describe(value), policyFailure);
            }
        }
    }

    void signal(Signal signal) {
        try {
            if (signal.isTick()) {
                operator.processTick();
            } else {
                operator.processIdle();
            }
        } catch (RecordFailure failure) {
            throw failure;
        } catch (Exception error) {
            throw new RecordFailure(
                    operator.info.qualifiedName(), "processing time " + System.currentTimeMillis(), error);
        }
    }

    void watermark(long time) {
        try {
            operator.advanceWatermark(time);
        } catch (RecordFailure failure) {
            throw failure;
        } catch (Exception error) {
            throw ErrorHandler.atWatermark(operator.info, time, error);
        }
    }

    @Override
    public void emit(Object value, long timestamp) {
        if (next != null) {
            next.record(value, timestamp);
        } else {
            sendOut(new Rec(value, timestamp));
        }
    }

    @Override
    public void emitWatermark(long time) {
        if (next != null) {
            next.watermark(time);
        } else {
            sendOut(Mark.of(time));
        }
    }

    @Override
    public void emitSignal(Signal signal) {
        if (next != null) {
            next.signal(signal);
        } else {
            sendOut(signal);
        }
    }

    @Override
    public void emitSide(SideRecord record) {
        if (next != null) {
            next.emitSide(record);
        } else {
            sendOut(record);
        }
    }

    /** The operator's time and the objects holding its state. */
    @Override
    public void snapshot(long checkpointId, DataOutput out) throws IOException {
        out.writeLong(operator.watermark);
        writeState(out);
        if (incremental) {
            operator.clearChanges();
        }
    }

    @Override
    public void restore(DataInput in) throws IOException {
        operator.watermark = in.readLong();
        readState(in);
        if (incremental) {
            operator.clearChanges();
        }
    }

    /** Keyed operators (process functions, rolling aggregates) note their changed keys from now on. */
    @Override
    public void trackChanges() {
        incremental = operator.trackChanges();
    }

    /** The operator's time, then its changes, or its whole state if it does not note its changes. */
    @Override
    public void snapshotChanges(long checkpointId, DataOutput out) throws IOException {
        out.writeLong(operator.watermark);
        if (incremental) {
            out.writeByte(CHANGES);
            codec().write(out, operator.saveChanges());
        } else {
            out.writeByte(WHOLE);
            writeState(out);
        }
    }

    @Override
    public void restoreChanges(DataInput in) throws IOException {
        operator.watermark = in.readLong();
        byte kind = in.readByte();
        if (kind == WHOLE) {
            readState(in);
        } else if (kind == CHANGES) {
            try {
                operator.loadChanges(codec().read(in));
            } catch (UnsupportedOperationException e) {
                throw new IOException("operator " + operator.info.qualifiedName() + ": " + e.getMessage(), e);
            }
        } else {
            throw new IOException("not a change set of a stream operator (kind " + kind + ")");
        }
        if (incremental) {
            operator.clearChanges();
        }
    }

    /** Whether the operator keeps state, then its state objects. */
    private void writeState(DataOutput out) throws IOException {
        Object[] state = operator.saveState();
        out.writeBoolean(state != null);
        if (state != null) {
            codec().write(out, state);
        }
    }

    private void readState(DataInput in) throws IOException {
        if (in.readBoolean()) {
            operator.loadState(codec().read(in));
        }
    }

    private StateCodec codec() {
        if (codec == null) {
            codec = new StateCodec();
        }
        return codec;
    }

    @Override
    public String toString() {
        return "operator " + operator.info.name();
    }
}
