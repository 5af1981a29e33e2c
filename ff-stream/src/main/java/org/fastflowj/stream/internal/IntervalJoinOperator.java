package org.fastflowj.stream.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Flink's interval join: a left record at {@code t} meets every right record of its key at {@code t +
 * lower <= t' <= t + upper}; each pair is emitted as soon as its second record arrives, at the later of
 * the two times. A record older than the watermark is late (counted, dropped). Each side keeps a key's
 * records only while a record of the other side could still meet them: a left record until the
 * watermark passes {@code t + upper}, a right one until it passes {@code t' - lower}; one timer per key,
 * at its oldest record's purge time, purges them and sets the next.
 */
public final class IntervalJoinOperator extends Operator {
    private final Function<Object, Object> keyOf;
    private final BiFunction<Object, Object, Object> function;
    private final long lower;
    private final long upper;
    private Map<Object, Buffers> buffers = new HashMap<>();
    private EventTimers purges = new EventTimers();

    private static final class Buffers {
        final TreeMap<Long, List<Object>> left = new TreeMap<>();
        final TreeMap<Long, List<Object>> right = new TreeMap<>();
        /** The key's one pending purge timer (MAX: none): a record whose purge comes later registers none. */
        long purgeAt = Long.MAX_VALUE;
    }

    @SuppressWarnings("unchecked")
    public IntervalJoinOperator(Function<Object, Object> keyOf, BiFunction<?, ?, ?> function, long lower, long upper) {
        this.keyOf = keyOf;
        this.function = (BiFunction<Object, Object, Object>) function;
        this.lower = lower;
        this.upper = upper;
    }

    @Override
    Object[] saveState() {
        return new Object[] {buffers, purges};
    }

    @Override
    @SuppressWarnings("unchecked")
    void loadState(Object[] state) {
        buffers = (Map<Object, Buffers>) state[0];
        purges = (EventTimers) state[1];
    }

    @Override
    public void processRecord(Object record, long ts) throws Exception {
        WindowOperator.requireTimestamp(ts, record);
        if (ts < watermark) {
            info.counters().late().increment();
            return;
        }
        Tagged tagged = (Tagged) record;
        Object key = keyOf.apply(tagged);
        Buffers keyBuffers = buffers.computeIfAbsent(key, k -> new Buffers());
        boolean left = tagged.side == 0;
        // The other side's times a record at ts meets: [ts + lower, ts + upper] for a left record.
        NavigableMap<Long, List<Object>> others = left
                ? keyBuffers.right.subMap(add(ts, lower), true, add(ts, upper), true)
                : keyBuffers.left.subMap(add(ts, -upper), true, add(ts, -lower), true);
        for (Map.Entry<Long, List<Object>> entry : others.entrySet()) {
            long at = Math.max(ts, entry.getKey());
            for (Object other : entry.getValue()) {
                Object joined = left ? function.apply(tagged.value, other) : function.apply(other, tagged.value);
                if (joined == null) {
                    throw new NullPointerException("the join function returned null");
                }
                out.emit(joined, at);
            }
        }
        (left ? keyBuffers.left : keyBuffers.right)
                .computeIfAbsent(ts, t -> new ArrayList<>(2))
                .add(tagged.value);
        long purgeAt = add(add(ts, left ? upper : -lower), 1);
        if (purgeAt < keyBuffers.purgeAt) {
            purges.register(key, purgeAt);
            keyBuffers.purgeAt = purgeAt;
        }
    }

    @Override
    public void processWatermark(long time) throws Exception {
        for (EventTimers.Timer timer = purges.pollDue(time); timer != null; timer = purges.pollDue(time)) {
            Buffers keyBuffers = buffers.get(timer.key());
            if (keyBuffers != null) {
                // A record of either side that arrives from now on is at or after the watermark.
                keyBuffers.left.headMap(add(time, -upper), false).clear();
                keyBuffers.right.headMap(add(time, lower), false).clear();
                if (keyBuffers.left.isEmpty() && keyBuffers.right.isEmpty()) {
                    buffers.remove(timer.key());
                } else if (timer.time() == keyBuffers.purgeAt) {
                    // The next purge of what is left: when the oldest record of either side can meet no other.
                    long next = Long.MAX_VALUE;
                    if (!keyBuffers.left.isEmpty()) {
                        next = add(add(keyBuffers.left.firstKey(), upper), 1);
                    }
                    if (!keyBuffers.right.isEmpty()) {
                        next = Math.min(next, add(add(keyBuffers.right.firstKey(), -lower), 1));
                    }
                    purges.register(timer.key(), next);
                    keyBuffers.purgeAt = next;
                }
            }
        }
        out.emitWatermark(time);
    }

    /** {@code time + delta}, held at the ends of the time line (the end of a stream is Long.MAX_VALUE). */
    private static long add(long time, long delta) {
        long sum = time + delta;
        if (((time ^ sum) & (delta ^ sum)) < 0) {
            return delta > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
        }
        return sum;
    }
}
