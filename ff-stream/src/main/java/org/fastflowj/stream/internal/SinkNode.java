package org.fastflowj.stream.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.Node;
import org.fastflowj.core.checkpoint.Checkpointed;
import org.fastflowj.stream.Sink;

/**
 * The sink's one instance: writes every record's value, and every side record that came down its
 * stream to its side sink; watermarks end here. It snapshots and restores the side sinks it alone
 * writes with its own sink, so their output rolls back with the stream's.
 */
public final class SinkNode extends Node<Object, Object> implements Checkpointed {
    private final Sink<Object> sink;
    private final OperatorInfo info;
    private final List<SideSink<?>> sideSinks;
    private final List<SideSink<?>> reaching;
    /** This node's sink, then the side sinks only it writes: each rolls back at this node's barriers. */
    private final List<Sink<?>> rollingBack;

    /**
     * @param sideSinks the job's side sinks, by {@link SideSink#index}
     * @param reaching those whose records come down this sink's stream, their routes in every job known
     */
    @SuppressWarnings("unchecked")
    public SinkNode(Sink<?> sink, OperatorInfo info, List<SideSink<?>> sideSinks, List<SideSink<?>> reaching) {
        this.sink = (Sink<Object>) sink;
        this.info = info;
        this.sideSinks = sideSinks;
        this.reaching = List.copyOf(reaching);
        List<Sink<?>> sinks = new ArrayList<>(List.of(sink));
        for (SideSink<?> side : reaching) {
            if (side.oneWriter()) {
                sinks.add(side.sink());
            }
        }
        this.rollingBack = List.copyOf(sinks);
    }

    @Override
    protected void svcInit() {
        info.counters().started().set(true);
        reaching.forEach(SideSink::started);
    }

    @Override
    protected Object svc(Object item) {
        if (item instanceof Rec rec) {
            try {
                sink.write(rec.value);
            } catch (Exception e) {
                throw new RecordFailure(info.qualifiedName(), RecordFailure.describe(rec.value), e);
            }
        } else if (item instanceof SideRecord side) {
            write(sideSinks.get(side.sink()), side.value());
        }
        return goOn();
    }

    /** Writes {@code value} to {@code side}; a failure names the side sink and the record. */
    @SuppressWarnings("unchecked")
    static void write(SideSink<?> side, Object value) {
        try {
            ((SideSink<Object>) side).write(value);
        } catch (Exception e) {
            throw new RecordFailure("'" + side.sink().name() + "'", RecordFailure.describe(value), e);
        }
    }

    @Override
    public void snapshot(long checkpointId, DataOutput out) throws IOException {
        List<Sink<?>> sinks = rollingBack;
        if (sinks.size() == 1) {
            sink.snapshot(checkpointId, out);
            return;
        }
        // Each sink's part is framed by its length: a sink's restore need not read all its snapshot wrote.
        for (Sink<?> each : sinks) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            each.snapshot(checkpointId, new DataOutputStream(bytes));
            out.writeInt(bytes.size());
            out.write(bytes.toByteArray());
        }
    }

    @Override
    public void restore(DataInput in) throws IOException {
        List<Sink<?>> sinks = rollingBack;
        if (sinks.size() == 1) {
            sink.restore(in);
            return;
        }
        for (Sink<?> each : sinks) {
            int length = in.readInt();
            if (length < 0) {
                throw new IOException("sink '" + each.name() + "': its snapshot's length is " + length);
            }
            byte[] part = new byte[length];
            in.readFully(part);
            each.restore(new DataInputStream(new ByteArrayInputStream(part)));
        }
    }

    @Override
    public void checkpointCompleted(long id) {
        for (Sink<?> each : rollingBack) {
            each.checkpointCompleted(id);
        }
    }

    @Override
    public String toString() {
        return "sink " + info.name();
    }
}
