package org.fastflowj.core.runtime;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.checkpoint.Checkpoint;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.GroupCheckpoints;
import org.fastflowj.core.checkpoint.RestartStrategy;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.runtime.control.CheckpointCoordinator;
import org.fastflowj.core.runtime.control.CheckpointTally;
import org.fastflowj.core.runtime.control.NodeStates;
import org.fastflowj.core.runtime.control.RunHooks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run with checkpoints ({@link RunOptions#checkpoints}): attempts of the graph, each an {@link
 * Execution} with its {@link CheckpointCoordinator}. When an attempt fails and the {@link
 * RestartStrategy} allows it, the next attempt starts on the same nodes, after the strategy's delay, from
 * the last completed checkpoint: each stateful node restores its state, sources their position, and what
 * the failed attempt did after that checkpoint is done again. Before the first checkpoint completes, the
 * nodes' state as the run started (taken here, before any node runs) stands for it.
 *
 * <p>Threading: a supervisor thread awaits each attempt and starts the next; any thread may await,
 * cancel or read the statistics.
 */
final class CheckpointedRun implements GraphRun {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointedRun.class);

    private final Graph graph;
    private final RunOptions options;
    private final RunHooks hooks;
    private final AtomicLong ids;
    private final CheckpointTally tally = new CheckpointTally();
    private final Checkpoint initial;
    private final Thread supervisor;
    private final CountDownLatch done = new CountDownLatch(1);

    private volatile Execution current;
    private volatile CheckpointCoordinator coordinator;
    private volatile boolean cancelled;
    private volatile RuntimeException outcome;

    private CheckpointedRun(Graph graph, RunOptions options, RunHooks hooks, long lastId, Checkpoint initial) {
        this.graph = graph;
        this.options = options;
        this.hooks = hooks;
        this.ids = new AtomicLong(lastId);
        this.initial = initial;
        this.supervisor = new Thread(this::supervise, "ff-restarts");
        this.supervisor.setDaemon(true);
    }

    /**
     * Checks that {@code graph} can take checkpoints, finds the state it starts from and starts its first
     * attempt.
     *
     * @throws IllegalArgumentException naming the node if the graph cannot take checkpoints
     * @throws IllegalStateException if the store cannot be read, or holds only unusable checkpoints
     */
    static CheckpointedRun start(Graph graph, RunOptions options, RunHooks hooks) {
        admit(graph);
        CheckpointStore store = options.checkpointStore();
        Checkpoint initial;
        long lastId;
        try {
            lastId = store.highestId();
            initial = options.resumesFromCheckpoint() ? store.latest().orElse(null) : null;
        } catch (IOException e) {
            throw new IllegalStateException("checkpoints: cannot read " + store.describe() + ": " + e.getMessage(), e);
        }
        if (initial != null) {
            checkMatches(graph, initial);
            LOG.info("resuming from checkpoint {} in {}", initial.id(), store.describe());
        } else {
            initial = statesAsTheyAre(graph);
        }
        CheckpointedRun run = new CheckpointedRun(graph, options, hooks, lastId, initial);
        run.current = run.attempt(initial);
        run.supervisor.start();
        return run;
    }

    /**
     * Starts one group's part of a program in groups, taking checkpoints into {@code groups}: one attempt
     * (a lost group is started again by the launcher, with every other group). A restart resumes from
     * checkpoint {@code resumeFrom} (0: none was complete, from the nodes' own state), a first start has
     * -1; it numbers its checkpoints after {@code numberedAfter}; both are chosen for every group alike
     * before any started.
     *
     * @throws IllegalArgumentException naming the node if the graph cannot take checkpoints
     * @throws IllegalStateException if the checkpoint to resume from cannot be read, or was not written by
     *     this group
     */
    static Execution startGroup(
            Graph local,
            RunOptions options,
            RunHooks hooks,
            GroupCheckpoints groups,
            long resumeFrom,
            long numberedAfter) {
        admit(local);
        Checkpoint from = null;
        try {
            if (resumeFrom > 0) {
                from = groups.partOf(resumeFrom);
                checkMatches(local, from);
                LOG.info("group {} resumes from checkpoint {} in {}", groups.group(), resumeFrom, groups.describe());
            }
            if (resumeFrom >= 0) {
                groups.dropPartsAfter(resumeFrom);
            }
            groups.clearEnd(); // runs again: the checkpoints from now on wait for its parts
        } catch (IOException e) {
            throw new IllegalStateException(
                    "checkpoints: group " + groups.group() + " cannot resume from checkpoint " + resumeFrom + " in "
                            + groups.describe() + ": " + e.getMessage(),
                    e);
        }
        boolean hasSources = local.vertices().stream()
                .anyMatch(v -> v.node() != null && v.forwardIn().isEmpty());
        CheckpointCoordinator coordinator = CheckpointCoordinator.ofGroup(
                groups,
                hasSources,
                options.checkpointInterval().toNanos(),
                options.checkpointMode(),
                from,
                new AtomicLong(numberedAfter),
                new CheckpointTally());
        coordinator.fullCheckpointEvery(options.fullCheckpointEvery());
        return Executor.start(local, options, hooks, coordinator);
    }

    /** Refuses what checkpoints cannot hold yet, naming the node; a bridge to another group carries barriers. */
    static void admit(Graph graph) {
        for (Vertex v : graph.vertices()) {
            if (v.node() == null) {
                continue;
            }
            if (!v.feedbackIn().isEmpty()) {
                throw new IllegalArgumentException("checkpoints: node " + v.name() + " (" + v.node()
                        + ") takes feedback; a barrier cannot be aligned on a loop, so a graph with"
                        + " feedback runs without checkpoints");
            }
            if (v.orderRole() != Vertex.OrderRole.NONE) {
                throw new IllegalArgumentException("checkpoints: node " + v.name() + " is part of an ordered"
                        + " farm, which checkpoints do not support; use an unordered farm");
            }
            if (v.forwardIn().isEmpty() && !NodeStates.replays(v.node())) {
                throw new IllegalArgumentException("checkpoints: source " + v.name() + " (" + v.node()
                        + ") is not replayable: "
                        + (NodeStates.hasState(v.node())
                                ? "it says it cannot read its input again after a restart (replays() is false)"
                                : "it must implement Checkpointed, keep its position in its snapshot and replay"
                                        + " what came after it on a restart"));
            }
        }
    }

    /**
     * A checkpoint from the store must hold a state for each stateful node of the graph that had not
     * ended, and no other; the nodes it saw ended must be nodes of the graph.
     */
    private static void checkMatches(Graph graph, Checkpoint checkpoint) {
        Set<String> stateful = new TreeSet<>();
        Set<String> all = new TreeSet<>();
        for (Vertex v : graph.vertices()) {
            if (v.node() == null) {
                continue;
            }
            all.add(v.name());
            if (NodeStates.hasState(v.node())) {
                stateful.add(v.name());
            }
        }
        Set<String> missing = new TreeSet<>(stateful);
        missing.removeAll(checkpoint.states().keySet());
        missing.removeAll(checkpoint.finished());
        Set<String> unknown = new TreeSet<>(checkpoint.states().keySet());
        unknown.removeAll(stateful);
        Set<String> unknownEnded = new TreeSet<>(checkpoint.finished());
        unknownEnded.removeAll(all);
        unknown.addAll(unknownEnded);
        if (!missing.isEmpty() || !unknown.isEmpty()) {
            throw new IllegalStateException("checkpoint " + checkpoint.id() + " was not written by this graph: "
                    + (missing.isEmpty() ? "" : "no state for " + missing)
                    + (missing.isEmpty() || unknown.isEmpty() ? "" : "; ")
                    + (unknown.isEmpty() ? "" : "states of nodes it does not have: " + unknown));
        }
    }

    /** The stateful nodes' state before anything ran, as checkpoint 0 (kept in memory only). */
    private static Checkpoint statesAsTheyAre(Graph graph) {
        Map<String, byte[]> states = new HashMap<>();
        for (Vertex v : graph.vertices()) {
            try {
                byte[] state = NodeStates.snapshot(v.node(), 0);
                if (state != null) {
                    states.put(v.name(), state);
                }
            } catch (IOException | RuntimeException e) {
                throw new IllegalStateException(
                        "checkpoints: node " + v.name() + " (" + v.node() + ") cannot snapshot its initial state: " + e,
                        e);
            }
        }
        return new Checkpoint(0, states);
    }

    private Execution attempt(Checkpoint from) {
        CheckpointCoordinator next = new CheckpointCoordinator(
                options.checkpointStore(),
                options.checkpointInterval().toNanos(),
                options.checkpointMode(),
                from,
                ids,
                tally);
        next.fullCheckpointEvery(options.fullCheckpointEvery());
        coordinator = next;
        return Executor.start(graph, options, hooks, next);
    }

    private void supervise() {
        RestartStrategy.Attempts attempts = options.restartStrategy().attempts();
        try {
            for (; ; ) {
                Execution execution = current;
                try {
                    execution.await();
                    coordinator.close(TimeUnit.SECONDS.toMillis(30));
                    return;
                } catch (NodeFailedException failure) {
                    CheckpointCoordinator failed = coordinator;
                    failed.close(TimeUnit.SECONDS.toMillis(5));
                    if (cancelled || !execution.isDone() || !attempts.restartAfterFailure(System.nanoTime())) {
                        if (attempts.restarts() > 0) {
                            failure.addSuppressed(new IllegalStateException("the run failed for good after " + attempts
                                    + (execution.isDone()
                                            ? ""
                                            : "; not restarted: node threads of the failed attempt still run")));
                        }
                        outcome = failure;
                        return;
                    }
                    Checkpoint from = failed.lastCompleted();
                    LOG.warn(
                            "node {} failed in {} ({}); restarting from checkpoint {} in {} ({})",
                            failure.nodeName(),
                            failure.phase(),
                            String.valueOf(failure.getCause()),
                            from.id(),
                            options.restartStrategy().delay(),
                            attempts);
                    Thread.sleep(options.restartStrategy().delay().toMillis());
                    if (cancelled) {
                        outcome = new CancellationException("the run was cancelled while it waited to restart");
                        return;
                    }
                    tally.restarted();
                    current = attempt(from);
                }
            }
        } catch (CancellationException e) {
            outcome = e;
        } catch (InterruptedException e) {
            outcome = new CancellationException("the run was cancelled while it waited to restart");
        } catch (RuntimeException | Error e) {
            outcome = new NodeFailedException("checkpoints", "restart", e);
        } finally {
            done.countDown();
        }
    }

    @Override
    public void await() {
        boolean interrupted = false;
        for (; ; ) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
                cancel(); // the caller gave up on the run, as Execution.await does
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        report();
    }

    @Override
    public boolean await(long timeout, TimeUnit unit) {
        try {
            if (!done.await(timeout, unit)) {
                return false;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancel();
            return false;
        }
        report();
        return true;
    }

    private void report() {
        RuntimeException failure = outcome;
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public boolean isDone() {
        return done.getCount() == 0;
    }

    @Override
    public boolean isStopped() {
        return cancelled || outcome != null;
    }

    @Override
    public void cancel() {
        cancelled = true;
        current.cancel();
        supervisor.interrupt();
    }

    @Override
    public RunStats stats() {
        RunStats stats = current.stats();
        return new RunStats(stats.nodes(), stats.links(), stats.queues(), Optional.of(tally.stats()));
    }

    /** The newest checkpoint the run completed or started from (checkpoint 0: the state it started in). */
    Checkpoint lastCompleted() {
        Checkpoint last = coordinator.lastCompleted();
        return last == null ? initial : last;
    }
}
