package org.fastflowj.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.spi.EngineRun;
import org.fastflowj.core.spi.Placement;

/**
 * A building block: a sequential {@link Node} (or {@link Combiner}), a {@link Pipeline}, a {@link Farm} or
 * an {@link AllToAll}. Blocks nest like LEGO bricks; the tree they form is only a description until
 * {@link #run()} compiles it into a graph of node threads joined by SPSC channels and starts it.
 *
 * <p>Threading: build and run a block from one thread. While it runs, the tree must not be changed.
 */
public abstract class BuildingBlock {
    /** The current or last run, with its MBeans and metrics server; null before the first. */
    private volatile EngineRun<RunStats> execution;

    /*
     * 128 bytes ahead of a Node's own fields. Node objects of one graph are usually allocated one after
     * the other, and each is written on every item by its own thread (the GO_ON/EOS signal, the user's
     * counters); without the gap two workers' nodes can share a cache line and slow each other down. The
     * padding is here because every JVM lays a superclass's fields out before its subclass's, while the
     * order inside one class differs between JDKs. The int takes the 4-byte hole a header may leave,
     * which a subclass's field would otherwise fill. Other blocks carry it too, at no cost that matters.
     */
    @SuppressWarnings("unused")
    private int padHole;

    @SuppressWarnings("unused")
    private long pad00, pad01, pad02, pad03, pad04, pad05, pad06, pad07;
    @SuppressWarnings("unused")
    private long pad10, pad11, pad12, pad13, pad14, pad15, pad16, pad17;

    private final List<Group> groups = new ArrayList<>();
    /** Set before the run, by the building thread; the run's threads see it through Thread.start. */
    private String givenName;

    BuildingBlock() {}

    /**
     * Names the block in place of its place in the tree: a node's thread, failure, stats and DOT box
     * ({@link Node#named}); a farm's, pipeline's or all-to-all's DOT cluster and the thread names of its
     * nodes ({@code ff-search-worker0} for a farm named {@code search}, not {@code ff-farm1-worker0}). A
     * name given twice gets a suffix: the second {@code search} is {@code search#2}.
     *
     * @return this block
     * @throws IllegalArgumentException if {@code name} is null or blank
     */
    public BuildingBlock named(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(
                    this + ".named(" + (name == null ? "null" : "\"" + name + "\"") + "): a name must not be empty");
        }
        this.givenName = name.strip();
        return this;
    }

    /** The name given with {@link #named}, or null. */
    public final String givenName() {
        return givenName;
    }

    /**
     * Creates a distributed group from this block, as FastFlow's {@code createGroup}: with no {@link
     * Group#include included} child the group holds the whole block. Allowed on the root block and its
     * direct children; a node or combiner gives at most one group, a pipeline or all-to-all several (each
     * including some of its children). A farm gives one group of its own plus any number that each include
     * some of its workers, which then run in that group (from any level). The rules are checked when the graph is built.
     *
     * @param name the group's name, unique in the program and the key of the group in the JSON config; {@link
     *     Group#NAME_RULE}
     */
    public final Group createGroup(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(this + ".createGroup(" + (name == null ? "null" : "\"" + name + "\"")
                    + "): a group needs a non-empty name");
        }
        if (!Group.isValidName(name)) {
            throw new IllegalArgumentException(
                    this + ".createGroup(\"" + name + "\"): not a group name; expected " + Group.NAME_RULE);
        }
        Group group = new Group(name, this);
        groups.add(group);
        return group;
    }

    /** The groups created from this block, in creation order. */
    public final List<Group> groups() {
        return Collections.unmodifiableList(groups);
    }

    /** Starts the block with {@link RunOptions#defaults()}; returns at once. */
    public final void run() {
        run(RunOptions.defaults());
    }

    /**
     * Compiles the block into its concurrency graph and starts one thread per leaf node; returns at once.
     *
     * @throws GraphBuildException if the tree is not a legal composition (the message names the block
     *     and the rule)
     * @throws IllegalStateException if this block is already running
     */
    public final synchronized void run(RunOptions options) {
        start(options, Placement.ANY_RUNNER);
    }

    private void start(RunOptions options, Placement placement) {
        EngineRun<RunStats> current = execution;
        if (current != null && !current.isDone()) {
            throw new IllegalStateException(this + " is already running");
        }
        execution = Node.engine().start(this, options, placement);
    }

    /** {@link #toDot(RunOptions)} with {@link RunOptions#defaults()}: the program as written. */
    public final String toDot() {
        return toDot(RunOptions.defaults());
    }

    /**
     * The graph {@link #run(RunOptions)} would start, in Graphviz DOT ({@code dot -Tsvg}): one box per
     * thread, listing the nodes fused into it; channels drawn by kind (forward, on-demand, feedback,
     * order); farms, all-to-alls and distributed groups as clusters. Applies the optimizer as
     * {@code run} does, and starts nothing.
     *
     * @throws GraphBuildException if the tree is not a legal composition
     */
    public final String toDot(RunOptions options) {
        return Node.engine().toDot(this, options);
    }

    /**
     * Waits until every node thread has ended.
     *
     * @throws NodeFailedException if a node threw: the first failure, naming the node and the method
     * @throws java.util.concurrent.CancellationException if the run was cancelled (by {@link #cancel()}
     *     or by interrupting the thread in {@code waitEnd})
     * @throws IllegalStateException if the block was never started
     */
    public final void waitEnd() {
        try {
            started().await();
        } finally {
            closeMetrics();
        }
    }

    /**
     * Waits at most {@code timeout} for every node thread to end; the run goes on if the time is up.
     * A run that failed or was cancelled is reported by the deadline even if its threads are still
     * winding down (use {@link #waitEnd()} to also wait for them).
     *
     * @return true if the run ended (normally), false if it is still running
     * @throws NodeFailedException if a node threw
     * @throws java.util.concurrent.CancellationException if the run was cancelled
     */
    public final boolean waitEnd(long timeout, TimeUnit unit) {
        boolean ended = false;
        try {
            ended = started().await(timeout, unit);
            return ended;
        } catch (RuntimeException failedOrCancelled) {
            ended = true;
            throw failedOrCancelled;
        } finally {
            if (ended) {
                closeMetrics();
            }
        }
    }

    /**
     * Cancels the run: every node thread stops at its next check (a node blocked in user code is
     * interrupted), no EOS is sent and no {@code svcEnd} runs; {@code waitEnd} then throws
     * {@link java.util.concurrent.CancellationException}. Does nothing if the run already ended.
     */
    public final void cancel() {
        started().cancel();
    }

    /**
     * Makes this block answer {@code waitEnd}, {@code cancel} and {@code stats} for a run started
     * around it (an {@link Accelerator}'s pipeline), and refuses a second run while that one goes on.
     */
    final synchronized void runInside(BuildingBlock root, RunOptions options, boolean inProcess) {
        EngineRun<RunStats> current = execution;
        if (current != null && !current.isDone()) {
            throw new IllegalStateException(this + " is already running");
        }
        if (inProcess) {
            root.runInProcess(options, Placement.IN_PROCESS);
        } else {
            root.run(options);
        }
        execution = root.execution;
    }

    /**
     * As {@link #run(RunOptions)}, placed as {@code placement} says: {@link Placement#IN_PROCESS} keeps a
     * block a library runs for itself out of every distributed runner, so its items never go through a
     * serializer.
     */
    private synchronized void runInProcess(RunOptions options, Placement placement) {
        start(options, placement);
    }

    /**
     * The port the current (or last) run serves its live page and {@code /metrics} on, as bound: useful
     * with {@link RunOptions#ui(int) ui(0)}; -1 if it serves none.
     *
     * @throws IllegalStateException if the block was never started
     */
    public final int uiPort() {
        return started().uiPort();
    }

    private void closeMetrics() {
        EngineRun<RunStats> current = execution;
        if (current != null) {
            current.closeMetrics();
        }
    }

    /**
     * As {@link #runAndWaitEnd(RunOptions)}, but always on the shared-memory executor of this process
     * (see {@link Accelerator#startInProcess}): for a block a library runs for itself, such as a
     * pattern's farm, whose items are shared objects that must never go through a serializer.
     */
    public final void runInProcessAndWaitEnd(RunOptions options) {
        runInProcess(options, Placement.IN_PROCESS);
        waitEnd();
    }

    /**
     * For a block a library runs for itself whose workers may span distributed groups (a {@code
     * MacroDataFlow} with worker groups): in a process started as one of its groups, runs that group as
     * {@link #runAndWaitEnd(RunOptions)} does; otherwise the whole block on the shared-memory executor, as
     * {@link #runInProcessAndWaitEnd}, its items shared objects that never go through a serializer.
     */
    public final void runOwnGroupOrInProcessAndWaitEnd(RunOptions options) {
        runInProcess(options, Placement.OWN_GROUP_OR_IN_PROCESS);
        waitEnd();
    }

    /** Whether the current run failed or was cancelled; a cheap check for callers feeding the run. */
    final boolean runStopped() {
        EngineRun<RunStats> current = execution;
        return current != null && current.isStopped();
    }

    /** {@link #run()} then {@link #waitEnd()}. */
    public final void runAndWaitEnd() {
        runAndWaitEnd(RunOptions.defaults());
    }

    /** {@link #run(RunOptions)} then {@link #waitEnd()}. */
    public final void runAndWaitEnd(RunOptions options) {
        run(options);
        waitEnd();
    }

    /**
     * Per-node statistics of the current or last run. While the run goes on, each call is a fresh
     * snapshot of counters the node threads keep as they go: item counts and blocked times grow, each
     * value read on its own without stopping the run, so a value may lag the node by a few items and
     * {@code svcNanos} stays 0 until the node ended. Each channel's fill ({@link RunStats#queues()}) is read
     * from the channel itself at the time of the call. Once {@link #waitEnd()} has returned they are final.
     *
     * @throws IllegalStateException if the block was never started
     */
    public final RunStats stats() {
        return started().stats();
    }

    private EngineRun<RunStats> started() {
        EngineRun<RunStats> current = execution;
        if (current == null) {
            throw new IllegalStateException(this + " has not been started: call run() first");
        }
        return current;
    }
}
