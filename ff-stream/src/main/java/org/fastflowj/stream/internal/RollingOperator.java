package org.fastflowj.stream.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.fastflowj.stream.Aggregate;

/** A rolling keyed aggregate: each record updates its key's accumulator and emits the key's result so far. */
public final class RollingOperator extends Operator {
    private final Function<Object, Object> keyOf;
    private final Aggregate<Object, Object, Object> aggregate;
    private Map<Object, Object> accumulators = new HashMap<>();

    @SuppressWarnings("unchecked")
    public RollingOperator(Function<?, ?> keyOf, Aggregate<?, ?, ?> aggregate) {
        this.keyOf = (Function<Object, Object>) keyOf;
        this.aggregate = (Aggregate<Object, Object, Object>) aggregate;
    }

    @Override
    Object[] saveState() {
        return new Object[] {accumulators};
    }

    @Override
    @SuppressWarnings("unchecked")
    void loadState(Object[] state) {
        accumulators = (Map<Object, Object>) state[0];
    }

    @Override
    public void processRecord(Object value, long timestamp) {
        Object key = keyOf.apply(value);
        Object acc = accumulators.get(key);
        acc = aggregate.add(acc == null ? aggregate.create() : acc, value);
        accumulators.put(key, acc);
        out.emit(aggregate.result(acc), timestamp);
    }
}
