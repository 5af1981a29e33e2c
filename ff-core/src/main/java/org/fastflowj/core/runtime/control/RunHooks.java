package org.fastflowj.core.runtime.control;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.runtime.recovery.RecoveryHooks;

/**
 * What a {@link org.fastflowj.core.runtime.GraphRunner} adds to a run of the {@link org.fastflowj.core.runtime.Executor}: an item filter every node applies to
 * what it sends (ff-dist's serialization check), and callbacks at the first failure and at the very end.
 * Immutable; every setter returns a copy. A record: the run-time reads its components.
 *
 * <p>Threading: {@code onFailure} runs on the thread that failed first (a node thread, or whoever called
 * {@link org.fastflowj.core.runtime.Execution#fail}); {@code onEnd} on the last node thread to end, before it ends, so {@code
 * waitEnd} returns only after it; {@code itemFilter} instances are made one per node thread.
 */
public record RunHooks(
        Supplier<UnaryOperator<Object>> itemFilters,
        Consumer<NodeFailedException> onFailure,
        Runnable onEnd,
        Supplier<List<LinkStats>> linkStats,
        int otherBusyThreads,
        RecoveryHooks recovery) {
    public static final RunHooks NONE = new RunHooks(null, f -> {}, () -> {}, List::of, 0, RecoveryHooks.NONE);

    /** {@code itemFilters} may be null (no filter); every other hook must be given. */
    public RunHooks {
        Objects.requireNonNull(onFailure, "onFailure");
        Objects.requireNonNull(onEnd, "onEnd");
        Objects.requireNonNull(linkStats, "linkStats");
        Objects.requireNonNull(recovery, "recovery");
        if (otherBusyThreads < 0) {
            throw new IllegalArgumentException("otherBusyThreads must be >= 0, got " + otherBusyThreads);
        }
    }

    /** How the run survives lost consumers, per node ({@link RecoveryHooks}); none by default. */
    public RunHooks recovery(RecoveryHooks hooks) {
        return new RunHooks(itemFilters, onFailure, onEnd, linkStats, otherBusyThreads, hooks);
    }

    /** Every item a node sends goes through a filter of its own from {@code factory} (null for none). */
    public RunHooks itemFilters(Supplier<UnaryOperator<Object>> factory) {
        return new RunHooks(factory, onFailure, onEnd, linkStats, otherBusyThreads, recovery);
    }

    public RunHooks onFailure(Consumer<NodeFailedException> action) {
        return new RunHooks(itemFilters, action, onEnd, linkStats, otherBusyThreads, recovery);
    }

    public RunHooks onEnd(Runnable action) {
        return new RunHooks(itemFilters, onFailure, action, linkStats, otherBusyThreads, recovery);
    }

    /** Statistics of the run's network links, added to {@link org.fastflowj.core.runtime.Execution#stats()}. */
    public RunHooks linkStats(Supplier<List<LinkStats>> supplier) {
        return new RunHooks(itemFilters, onFailure, onEnd, supplier, otherBusyThreads, recovery);
    }

    /**
     * Threads besides the node threads that compete for the cores while the graph runs (a transport's
     * event loops): counted when the executor decides whether its threads outnumber the cores, which
     * makes waiting threads park after a short spin instead of spinning and yielding (see IdlePolicy).
     */
    public RunHooks otherBusyThreads(int threads) {
        return new RunHooks(itemFilters, onFailure, onEnd, linkStats, threads, recovery);
    }

    public UnaryOperator<Object> newItemFilter() {
        return itemFilters == null ? null : itemFilters.get();
    }

    void failed(NodeFailedException failure) {
        onFailure.accept(failure);
    }

    void ended() {
        onEnd.run();
    }
}
