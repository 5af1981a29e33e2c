package org.fastflowj.stream.internal;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.fastflowj.stream.Aggregate;

/**
 * A rolling keyed aggregate: each record updates its key's accumulator and emits the key's result so far.
 * With incremental checkpoints on, it notes the keys it updated since the last checkpoint (null, and
 * untouched, unless on), so that a checkpoint writes their accumulators only.
 */
public final class RollingOperator extends Operator {
    private final Function<Object, Object> keyOf;
    private final Aggregate<Object, Object, Object> aggregate;
    private Map<Object, Object> accumulators = new HashMap<>();
    /** The keys updated since the last checkpoint; null unless tracking. */
    private Set<Object> changed;

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
    boolean trackChanges() {
        changed = new HashSet<>();
        return true;
    }

    /** The updated keys and their accumulators, as {@code {Object[] keys, Object[] accumulators}}. */
    @Override
    Object[] saveChanges() {
        Object[] keys = changed.toArray();
        Object[] values = new Object[keys.length];
        for (int i = 0; i < keys.length; i++) {
            values[i] = accumulators.get(keys[i]);
        }
        changed.clear();
        return new Object[] {keys, values};
    }

    @Override
    void loadChanges(Object[] changes) {
        Object[] keys = (Object[]) changes[0];
        Object[] values = (Object[]) changes[1];
        for (int i = 0; i < keys.length; i++) {
            if (values[i] == null) {
                accumulators.remove(keys[i]);
            } else {
                accumulators.put(keys[i], values[i]);
            }
        }
    }

    @Override
    void clearChanges() {
        if (changed != null) {
            changed.clear();
        }
    }

    int changesNoted() {
        return changed == null ? 0 : changed.size();
    }

    @Override
    public void processRecord(Object value, long timestamp) {
        Object key = keyOf.apply(value);
        Object acc = accumulators.get(key);
        acc = aggregate.add(acc == null ? aggregate.create() : acc, value);
        accumulators.put(key, acc);
        if (changed != null) {
            changed.add(key);
        }
        out.emit(aggregate.result(acc), timestamp);
    }
}
