package org.fastflowj.dist.run.recovery;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.WeakHashMap;

/**
 * The peers each group of this process lost in its earlier runs. A program may run several times across
 * the same groups (every {@code MacroDataFlow.run} and {@code ParallelFor} call with worker groups is a run
 * of its own); a peer lost in one run has no process left for the next, which would wait for it until the
 * connect timeout and fail. So a later run of the group goes on without it from its start when it may lose
 * it, and fails at once, naming it, when it may not.
 *
 * <p>Kept per config object (by identity, weakly: a config no run uses any more is let go of) and group,
 * so groups run as threads of one JVM, each with its own config or group, keep their own books.
 *
 * <p>Threading: any thread; every method takes this class's lock (once per loss, once per run).
 */
public final class EarlierLosses {
    private static final Map<Object, Map<String, Set<String>>> LOST = new WeakHashMap<>();

    private EarlierLosses() {}

    /** Group {@code group} of the run configured by {@code config} lost {@code peer}. */
    public static synchronized void record(Object config, String group, String peer) {
        LOST.computeIfAbsent(config, c -> new HashMap<>())
                .computeIfAbsent(group, g -> new TreeSet<>())
                .add(peer);
    }

    /** The peers {@code group} lost in the earlier runs configured by {@code config}, sorted. */
    public static synchronized Set<String> of(Object config, String group) {
        Map<String, Set<String>> byGroup = LOST.get(config);
        Set<String> lost = byGroup == null ? null : byGroup.get(group);
        return lost == null ? Set.of() : Set.copyOf(new TreeSet<>(lost));
    }
}
