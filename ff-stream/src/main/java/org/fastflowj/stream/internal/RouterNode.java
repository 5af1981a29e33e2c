package org.fastflowj.stream.internal;

import org.fastflowj.core.MultiOutputNode;

/**
 * The last node of a stage whose records are shuffled to the next stage's instances: by the key's key
 * group, round-robin, or to all. Watermarks go to every output channel, so each instance downstream
 * sees the time of every upstream instance; side records go to the first.
 */
public final class RouterNode extends MultiOutputNode<Object, Object> {
    private final Exchange exchange;
    private final String consumer;
    private int next;

    public RouterNode(Exchange exchange, String consumer) {
        this.exchange = exchange;
        this.consumer = consumer;
    }

    @Override
    protected Object svc(Object item) {
        if (item instanceof Mark || item instanceof Signal) {
            broadcast(item);
            return goOn();
        }
        if (item instanceof SideRecord) {
            // Bound for the sink node, which every instance downstream reaches alike.
            sendOutTo(item, 0);
            return goOn();
        }
        switch (exchange.kind()) {
            case KEYED -> sendOutTo(item, KeyGroups.instance(keyOf((Rec) item), outputChannels()));
            case BROADCAST -> broadcast(item);
            default -> {
                sendOutTo(item, next);
                next = next + 1 == outputChannels() ? 0 : next + 1;
            }
        }
        return goOn();
    }

    private Object keyOf(Rec rec) {
        Object key = exchange.key().apply(rec.value);
        if (key == null) {
            throw new RecordFailure(
                    "'" + consumer + "'",
                    RecordFailure.describe(rec.value),
                    new NullPointerException("its key is null"));
        }
        return key;
    }

    @Override
    public String toString() {
        return "route to " + consumer;
    }
}
