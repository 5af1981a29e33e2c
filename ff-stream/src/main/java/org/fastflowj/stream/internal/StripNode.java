package org.fastflowj.stream.internal;

import org.fastflowj.core.Node;

/**
 * Before a block dropped into the stream: the block sees the values only. Watermarks stop here (the
 * block knows nothing of them); after the block, time restarts from the block's end of stream, or from a
 * new {@code withTimestamps}.
 */
public final class StripNode extends Node<Object, Object> {
    @Override
    protected Object svc(Object item) {
        return item instanceof Rec rec ? rec.value : goOn();
    }

    @Override
    public String toString() {
        return "to block";
    }
}
