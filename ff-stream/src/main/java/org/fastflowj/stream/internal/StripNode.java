package org.fastflowj.stream.internal;

import java.util.List;
import org.fastflowj.core.Node;

/**
 * Before a block dropped into the stream: the block sees the values only. Watermarks stop here (the
 * block knows nothing of them); after the block, time restarts from the block's end of stream, or from a
 * new {@code withTimestamps}. Side records cannot pass the block either: they are written here.
 */
public final class StripNode extends Node<Object, Object> {
    private final List<SideSink<?>> sideSinks;

    /** @param sideSinks the job's side sinks, by {@link SideSink#index} */
    public StripNode(List<SideSink<?>> sideSinks) {
        this.sideSinks = sideSinks;
    }

    @Override
    protected Object svc(Object item) {
        if (item instanceof Rec rec) {
            return rec.value;
        }
        if (item instanceof SideRecord side) {
            SinkNode.write(sideSinks.get(side.sink()), side.value());
        }
        return goOn();
    }

    @Override
    public String toString() {
        return "to block";
    }
}
