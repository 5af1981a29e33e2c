package org.fastflowj.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one node thread did in a run. {@code svcNanos} is the thread's running time minus the time it
 * was blocked, so it also holds the (small) per-item cost of the run-time.
 *
 * @param name the node's name ({@link Node#named}), else its thread's name (its place in the tree)
 * @param itemsIn items taken from input channels and given to {@code svc}
 * @param itemsOut items put on output channels (EOS not counted)
 * @param svcNanos time in {@code svc} and the run-time around it
 * @param blockedInputNanos time waiting on empty input channels
 * @param blockedOutputNanos time waiting on full output channels
 * @param cpu the CPU the thread was pinned to, or -1
 * @param counters the node's {@linkplain NodeCounter counters} by name, in the order declared (a fused
 *     node's parts' counters of one name add up): {@code "skipped"} and {@code "dead-lettered"} of its
 *     {@linkplain Node#onError error policy}, and its own
 */
public record NodeStats(
        String name,
        long itemsIn,
        long itemsOut,
        long svcNanos,
        long blockedInputNanos,
        long blockedOutputNanos,
        int cpu,
        Map<String, Long> counters) {
    public NodeStats {
        counters = counters.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(counters));
    }

    /** Statistics of a node with no counters. */
    public NodeStats(
            String name,
            long itemsIn,
            long itemsOut,
            long svcNanos,
            long blockedInputNanos,
            long blockedOutputNanos,
            int cpu) {
        this(name, itemsIn, itemsOut, svcNanos, blockedInputNanos, blockedOutputNanos, cpu, Map.of());
    }

    /** The count of the counter {@code counter}, 0 when the node has none of that name. */
    public long counter(String counter) {
        return counters.getOrDefault(counter, 0L);
    }

    /** Items the node's error policy skipped ({@link NodeErrors#skip()}). */
    public long skippedItems() {
        return counter("skipped");
    }
}
