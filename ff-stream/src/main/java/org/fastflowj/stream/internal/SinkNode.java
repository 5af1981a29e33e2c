package org.fastflowj.stream.internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.fastflowj.core.Node;
import org.fastflowj.core.checkpoint.Checkpointed;
import org.fastflowj.stream.Sink;

/** The sink's one instance: writes every record's value; watermarks end here. */
public final class SinkNode extends Node<Object, Object> implements Checkpointed {
    private final Sink<Object> sink;
    private final OperatorInfo info;

    @SuppressWarnings("unchecked")
    public SinkNode(Sink<?> sink, OperatorInfo info) {
        this.sink = (Sink<Object>) sink;
        this.info = info;
    }

    @Override
    protected void svcInit() {
        info.counters().started().set(true);
    }

    @Override
    protected Object svc(Object item) {
        if (item instanceof Rec rec) {
            try {
                sink.write(rec.value);
            } catch (Exception e) {
                throw new RecordFailure(info.qualifiedName(), RecordFailure.describe(rec.value), e);
            }
        }
        return goOn();
    }

    @Override
    public void snapshot(long checkpointId, DataOutput out) throws IOException {
        sink.snapshot(checkpointId, out);
    }

    @Override
    public void restore(DataInput in) throws IOException {
        sink.restore(in);
    }

    @Override
    public void checkpointCompleted(long id) {
        sink.checkpointCompleted(id);
    }

    @Override
    public String toString() {
        return "sink " + info.name();
    }
}
