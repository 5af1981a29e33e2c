package org.fastflowj.core.runtime.control;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.fastflowj.core.Node;
import org.fastflowj.core.checkpoint.Checkpoint;
import org.fastflowj.core.checkpoint.CheckpointMode;
import org.fastflowj.core.checkpoint.CheckpointStats;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.GroupCheckpoints;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's checkpoints: it asks the sources for a barrier every interval (through {@link #requested},
 * which a source reads before each call of its {@code svc}), collects each node's state as the barrier
 * passes it, and once every node gave its own, saves the checkpoint in the store and tells the nodes.
 * One checkpoint at a time: the next is asked for only once the last completed or was given up, so a
 * node never sees two checkpoints' barriers interleaved. A node that ended ({@link #finished}) passes no
 * barrier: its end stands for it, at its consumers as at the coordinator, and the checkpoint records it
 * as ended, so checkpoints go on while a part of the graph is done (a source instance with nothing to
 * read, say); a sink (a node without outputs, whose state holds what it still has to commit) is recorded
 * with the state it ended with. A node's failure gives up the checkpoint under way and asks for no more.
 *
 * <p>A group of a program in groups ({@link GroupCheckpoints}) saves only its own part of a checkpoint,
 * which completes once every group saved its part: its checkpoint thread waits for that before it tells
 * the nodes, and asks for the next one only after, so that every group's sources number their barriers
 * alike. A barrier that comes from another group before this group asked for its checkpoint opens it.
 * When the group's last node ended it leaves an end record, which stands for its part of every later
 * checkpoint.
 *
 * <p>Threading: node threads call {@link #acknowledge}, {@link #runnerEnded} and read {@link #requested};
 * the run's checkpoint thread triggers, saves and notifies. The lock guards the checkpoint under way; it
 * is taken once per node and checkpoint, never per item.
 */
public final class CheckpointCoordinator {
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointCoordinator.class);
    /** How often a group looks whether the other groups saved their parts of a checkpoint. */
    private static final long GROUP_POLL_MILLIS = 5;
    /** How long a group's last node waits for its end record. */
    private static final long GROUP_END_TIMEOUT_SECONDS = 60;

    /** The newest checkpoint sources should put a barrier in for; 0 before the first. */
    public volatile long requested;

    public final CheckpointMode mode;
    private final CheckpointStore store;
    private final long intervalNanos;
    /** The checkpoint this run started from (its nodes restore it), or null for the nodes' own state. */
    final Checkpoint restoredFrom;
    /** The ids of the checkpoints of every attempt of the run, shared so they never repeat. */
    private final AtomicLong ids;

    private final CheckpointTally tally;
    /** The program's groups' checkpoints, when this run is one of its groups; null in one process. */
    private final GroupCheckpoints groups;
    /** Whether this run asks for checkpoints (it has sources), or only takes part in those others asked for. */
    private final boolean asks;

    private final Object lock = new Object();
    private RunControl control;
    private Node<?, ?>[] nodes = new Node<?, ?>[0];
    private String[] names = new String[0];
    /** Which nodes ended, by runner index; the nodes a restart starts as ended among them. */
    private boolean[] ended = new boolean[0];
    /** The state each ended sink ended with, by runner index (null for none): every later checkpoint keeps it. */
    private byte[][] endStates = new byte[0][];

    private int running;
    private Pending pending;
    /** Group mode: the newest checkpoint this group opened, and whether every group completed it. */
    private long lastOpened;

    private boolean lastOpenedDone = true;
    private boolean stopped;
    private volatile Checkpoint lastCompleted;
    /** Set before the nodes start; 1: whole states only. */
    private volatile int fullCheckpointEvery = 1;

    private ScheduledExecutorService thread;
    /** Which ended sinks were told of a checkpoint that holds their end state; the checkpoint thread's. */
    private boolean[] toldOfEnd = new boolean[0];

    /** The checkpoint under way: the states given so far, and the nodes that ended before giving one. */
    private static final class Pending {
        final long id;
        final long startNanos = System.nanoTime();
        final byte[][] states;
        /** For a node whose state holds changes only: the checkpoint of its previous state; else -1. */
        final long[] changesSince;

        final boolean[] given;
        public final boolean[] finished;
        int missing;
        long maxAlignmentNanos;

        Pending(long id, boolean[] ended, int running) {
            this.id = id;
            this.states = new byte[ended.length][];
            this.changesSince = new long[ended.length];
            Arrays.fill(changesSince, -1);
            this.given = ended.clone();
            this.finished = ended.clone();
            this.missing = running;
        }
    }

    public CheckpointCoordinator(
            CheckpointStore store,
            long intervalNanos,
            CheckpointMode mode,
            Checkpoint restoredFrom,
            AtomicLong ids,
            CheckpointTally tally) {
        this(store, intervalNanos, mode, restoredFrom, ids, tally, null, true);
    }

    /**
     * A coordinator of one group's part of the checkpoints of a program in groups. Only a group with
     * sources asks for checkpoints; one without opens each as its first barrier comes, so it never
     * numbers one itself.
     */
    public static CheckpointCoordinator ofGroup(
            GroupCheckpoints groups,
            boolean hasSources,
            long intervalNanos,
            CheckpointMode mode,
            Checkpoint restoredFrom,
            AtomicLong ids,
            CheckpointTally tally) {
        return new CheckpointCoordinator(
                groups.own(), intervalNanos, mode, restoredFrom, ids, tally, groups, hasSources);
    }

    private CheckpointCoordinator(
            CheckpointStore store,
            long intervalNanos,
            CheckpointMode mode,
            Checkpoint restoredFrom,
            AtomicLong ids,
            CheckpointTally tally,
            GroupCheckpoints groups,
            boolean asks) {
        this.groups = groups;
        this.asks = asks;
        this.store = store;
        this.intervalNanos = intervalNanos;
        this.mode = mode;
        this.restoredFrom = restoredFrom;
        this.ids = ids;
        this.tally = tally;
        this.lastCompleted = restoredFrom;
    }

    /**
     * The run's nodes and their names, by runner index, before any starts; the first checkpoint is asked
     * for at once.
     */
    public void attach(RunControl control, Node<?, ?>[] nodes, String[] names) {
        this.control = control;
        this.nodes = nodes;
        this.names = names;
        this.ended = new boolean[nodes.length];
        this.endStates = new byte[nodes.length][];
        this.toldOfEnd = new boolean[nodes.length];
        int taking = 0;
        for (int i = 0; i < nodes.length; i++) {
            ended[i] = nodes[i] == null; // a bridge to another group: it only carries the barriers
            taking += ended[i] ? 0 : 1;
        }
        this.running = taking;
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "ff-checkpoints");
            t.setDaemon(true);
            return t;
        });
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        thread = timer;
        synchronized (lock) {
            trigger();
        }
    }

    /** Starts asking for checkpoints every interval, once the run's threads started. */
    public void start() {
        thread.scheduleAtFixedRate(this::triggerNext, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
    }

    private void triggerNext() {
        synchronized (lock) {
            if (pending == null && !stopped && !control.cancelled) {
                trigger();
            }
        }
    }

    /** Under the lock. In groups, not before the last checkpoint completed in every group. */
    private void trigger() {
        if (asks && (groups == null || lastOpenedDone)) {
            open(ids.incrementAndGet());
        }
    }

    /** Under the lock. */
    private void open(long id) {
        pending = new Pending(id, ended, running);
        lastOpened = id;
        lastOpenedDone = false;
        requested = id; // the pending checkpoint before the sources can see its number
    }

    /**
     * Under the lock. A barrier of a checkpoint this group has not opened came from another group: it
     * opens it here too (and this group's sources put in the same barrier).
     */
    private void openFromAnotherGroup(long id) {
        if (pending != null) {
            LOG.warn("checkpoint {} is given up: a barrier of checkpoint {} came first", pending.id, id);
        }
        ids.accumulateAndGet(id, Math::max);
        open(id);
    }

    /** The state a node restores, or null if the run starts from the nodes' own. */
    public byte[] restoredState(String node) {
        return restoredFrom == null ? null : restoredFrom.states().get(node);
    }

    /**
     * The states a node restores in order, a whole state then the change sets after it; empty if the run
     * starts from the nodes' own.
     */
    public List<byte[]> restoredChain(String node) {
        return restoredFrom == null ? List.of() : restoredFrom.chainOf(node);
    }

    /** With incremental checkpoints: one checkpoint in this many holds a node's whole state. */
    public int fullCheckpointEvery() {
        return fullCheckpointEvery;
    }

    /** Incremental checkpoints, before the run's nodes start ({@link org.fastflowj.core.RunOptions#fullCheckpointEvery}). */
    public void fullCheckpointEvery(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("fullCheckpointEvery(" + n + ")");
        }
        this.fullCheckpointEvery = n;
    }

    /** The newest checkpoint complete everywhere (the one the run started from, at first), or -1. */
    public long lastCompletedId() {
        Checkpoint last = lastCompleted;
        return last == null ? -1 : last.id();
    }

    /** Whether the checkpoint the run starts from saw {@code node} ended: it starts as ended. */
    public boolean endedInRestored(String node) {
        return restoredFrom != null && restoredFrom.finished().contains(node);
    }

    /**
     * Node {@code index} passed the barrier of checkpoint {@code id} with {@code state} (null: it keeps
     * none), after aligning its inputs for {@code alignmentNanos}. The last one hands the checkpoint to
     * the checkpoint thread to save.
     */
    public void acknowledge(int index, long id, byte[] state, long alignmentNanos) {
        acknowledge(index, id, state, -1, alignmentNanos);
    }

    /**
     * {@link #acknowledge(int, long, byte[], long)} of a state that holds changes since the node's state
     * in checkpoint {@code changesSince} (the last completed one), or a whole state with -1.
     */
    public void acknowledge(int index, long id, byte[] state, long changesSince, long alignmentNanos) {
        Pending complete;
        synchronized (lock) {
            if (groups != null && id > lastOpened && !stopped) {
                openFromAnotherGroup(id);
            }
            Pending p = pending;
            if (p == null || p.id != id || p.given[index]) {
                return; // given up (a node ended), or a second barrier of one checkpoint
            }
            p.given[index] = true;
            p.states[index] = state;
            p.changesSince[index] = state == null ? -1 : changesSince;
            p.maxAlignmentNanos = Math.max(p.maxAlignmentNanos, alignmentNanos);
            if (--p.missing > 0) {
                return;
            }
            complete = p;
        }
        saveOnCheckpointThread(complete);
    }

    /**
     * Whether a checkpoint may still be taken after a node that is ending now: not if it is the last one
     * running, or the checkpoints stopped. A sink that is the last to end need not snapshot its end.
     */
    public boolean checkpointsAfterThisEnd() {
        synchronized (lock) {
            // in groups the last one's state goes into the group's end record, for the later checkpoints
            return (running > 1 || groups != null) && !stopped;
        }
    }

    /**
     * The checkpoint id a sink's snapshot at its end is taken under: higher than any checkpoint before it,
     * so what the sink files under it commits with the first checkpoint that saves its end state. In
     * groups it is the next checkpoint's number, taken without using it up: every group's sources must
     * go on numbering alike.
     */
    public long endSnapshotId() {
        if (groups == null) {
            return ids.incrementAndGet();
        }
        synchronized (lock) {
            return lastOpened + 1;
        }
    }

    /** {@link #finished(int, byte[])} for a node that keeps nothing past its end (one with outputs). */
    public void finished(int index) {
        finished(index, null);
    }

    /**
     * Node {@code index} ended as it should (its end sent, its svcEnd run): every checkpoint from now on,
     * the one under way if it gave it nothing, records it as ended, with {@code endState} (a sink's state
     * after its last item, or null). Once every node ended the run is over: the checkpoint under way is
     * given up and none is asked for again.
     */
    public void finished(int index, byte[] endState) {
        Pending complete = null;
        Future<?> groupEnd = null;
        synchronized (lock) {
            if (ended[index]) {
                return;
            }
            ended[index] = true;
            endStates[index] = endState;
            Pending p = pending;
            if (p != null && !p.given[index]) {
                p.given[index] = true;
                p.finished[index] = true;
                if (--p.missing == 0) {
                    complete = p;
                }
            }
            if (--running == 0) {
                stopped = true;
                pending = null;
                if (groups != null) {
                    // every other node gave its state or ended: the checkpoint under way is whole
                    groupEnd = saveEndOnCheckpointThread(complete);
                }
                complete = null;
            }
        }
        if (groupEnd != null) {
            awaitGroupEnd(groupEnd);
        } else if (complete != null) {
            saveOnCheckpointThread(complete);
        }
    }

    private void saveOnCheckpointThread(Pending complete) {
        try {
            thread.execute(() -> save(complete));
        } catch (RuntimeException shutDown) {
            // the run is over: the checkpoint is given up
        }
    }

    /**
     * The group's last node ended: its part of the checkpoint under way (null: none), then its end
     * record, which names its last part; then the checkpoint thread ends. Null if it ended already.
     */
    private Future<?> saveEndOnCheckpointThread(Pending part) {
        try {
            Future<?> end = thread.submit(() -> {
                if (part == null || saveOwn(part)) {
                    saveEnd();
                }
            });
            thread.shutdown();
            return end;
        } catch (RuntimeException shutDown) {
            return null; // the run failed or was cancelled: no end to record
        }
    }

    /**
     * The group's last node waits for its end record: the group's run is over only once it is durable,
     * for the other groups' checkpoints go on counting on it.
     */
    private void awaitGroupEnd(Future<?> end) {
        try {
            end.get(GROUP_END_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            control.fail(
                    "checkpoints",
                    "recording the end of group " + groups.group(),
                    new IOException(
                            "group " + groups.group() + "'s end was not recorded in " + groups.describe() + " within "
                                    + GROUP_END_TIMEOUT_SECONDS + " s: " + e,
                            e));
        }
    }

    private void saveEnd() {
        boolean[] everyNode = new boolean[nodes.length];
        Arrays.fill(everyNode, true);
        try {
            groups.saveEnd(checkpoint(groups.ownHighestId(), everyNode, new byte[nodes.length][]));
        } catch (IOException | RuntimeException e) {
            control.fail(
                    "checkpoints",
                    "recording the end of group " + groups.group(),
                    new IOException(
                            "group " + groups.group() + "'s end could not be recorded in " + groups.describe() + ": "
                                    + e,
                            e));
        }
    }

    private void save(Pending p) {
        Checkpoint checkpoint = checkpointOf(p);
        if (checkpoint == null || !saveOwn(p, checkpoint)) {
            return;
        }
        if (groups == null) {
            // Complete once saved: known before the next checkpoint can be asked for, whose nodes may then
            // write their changes since this one instead of their whole state.
            lastCompleted = checkpoint;
        }
        synchronized (lock) {
            if (pending == p) {
                pending = null;
            }
        }
        if (groups != null) {
            if (!awaitEveryGroup(p.id)) {
                return;
            }
            lastCompleted = checkpoint;
        }
        synchronized (lock) {
            if (lastOpened == p.id) {
                lastOpenedDone = true;
            }
        }
        completed(p, checkpoint);
    }

    private boolean saveOwn(Pending p) {
        Checkpoint checkpoint = checkpointOf(p);
        return checkpoint != null && saveOwn(p, checkpoint);
    }

    /** Saves this run's checkpoint (in groups, this group's part); false if it failed the run. */
    private boolean saveOwn(Pending p, Checkpoint checkpoint) {
        try {
            store.save(checkpoint);
            return true;
        } catch (IOException | RuntimeException e) {
            control.fail(
                    "checkpoints",
                    "saving checkpoint " + p.id,
                    new IOException("checkpoint " + p.id + " could not be saved in " + store.describe() + ": " + e, e));
            return false;
        }
    }

    /**
     * Waits until every group saved its part of checkpoint {@code id} (or ended before it): false if the
     * run stopped meanwhile.
     */
    private boolean awaitEveryGroup(long id) {
        for (; ; ) {
            if (groups.complete(id)) {
                return true;
            }
            synchronized (lock) {
                if (stopped || control.cancelled) {
                    return false;
                }
            }
            try {
                Thread.sleep(GROUP_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /** The checkpoint of {@code p}'s states; null if it cannot be built, which failed the run. */
    private Checkpoint checkpointOf(Pending p) {
        try {
            return build(p);
        } catch (RuntimeException e) {
            control.fail("checkpoints", "building checkpoint " + p.id, e);
            return null;
        }
    }

    private Checkpoint build(Pending p) {
        Checkpoint whole = checkpoint(p.id, p.finished, p.states);
        Map<String, Long> changesSince = new LinkedHashMap<>();
        Map<String, List<byte[]>> earlier = new LinkedHashMap<>();
        Checkpoint before = lastCompleted;
        for (int i = 0; i < nodes.length; i++) {
            long since = p.changesSince[i];
            if (since < 0 || !whole.states().containsKey(names[i])) {
                continue;
            }
            // The node took changes only if its previous snapshot went into the last completed checkpoint.
            if (before == null || before.id() != since) {
                throw new IllegalStateException("node " + names[i] + " wrote changes since checkpoint " + since
                        + ", but the last completed one is " + (before == null ? "none" : before.id()));
            }
            changesSince.put(names[i], since);
            earlier.put(names[i], before.chainOf(names[i]));
        }
        if (changesSince.isEmpty()) {
            return whole;
        }
        return new Checkpoint(whole.id(), whole.states(), whole.finished(), changesSince, earlier);
    }

    /**
     * Checkpoint {@code id}: the nodes that had ended (with the states the sinks among them ended with),
     * and the others' {@code states}.
     */
    private Checkpoint checkpoint(long id, boolean[] finishedNodes, byte[][] states) {
        Map<String, byte[]> saved = new LinkedHashMap<>();
        Set<String> finished = new LinkedHashSet<>();
        byte[][] endStates;
        synchronized (lock) {
            endStates = this.endStates.clone();
        }
        for (int i = 0; i < nodes.length; i++) {
            if (nodes[i] == null) {
                continue; // a bridge keeps no state
            }
            if (finishedNodes[i]) {
                finished.add(names[i]);
                if (endStates[i] != null) {
                    saved.put(names[i], endStates[i]);
                }
            } else if (states[i] != null) {
                saved.put(names[i], states[i]);
            }
        }
        return new Checkpoint(id, saved, finished);
    }

    /** Checkpoint {@code p} is complete: counted, logged, and each node that took part told. */
    private void completed(Pending p, Checkpoint checkpoint) {
        long durationNanos = System.nanoTime() - p.startNanos;
        tally.completed(p.id, durationNanos, checkpoint.sizeBytes(), p.maxAlignmentNanos);
        if (LOG.isInfoEnabled()) {
            LOG.info(
                    "checkpoint {} complete: {} bytes, {} ms, alignment {} ms",
                    p.id,
                    checkpoint.sizeBytes(),
                    TimeUnit.NANOSECONDS.toMillis(durationNanos),
                    TimeUnit.NANOSECONDS.toMillis(p.maxAlignmentNanos));
        }
        for (int i = 0; i < nodes.length; i++) {
            Node<?, ?> node = nodes[i];
            boolean endStateSaved = p.finished[i] && checkpoint.states().containsKey(names[i]);
            if (endStateSaved && !toldOfEnd[i]) {
                // the first checkpoint that holds a sink's end state commits what that state holds
                toldOfEnd[i] = true;
            } else if (node == null || p.finished[i] || !NodeStates.hasState(node)) {
                continue;
            }
            try {
                NodeStates.completed(node, p.id);
            } catch (RuntimeException e) {
                control.fail(names[i], "checkpointCompleted(" + p.id + ")", e);
                return;
            }
        }
    }

    /**
     * A node failed or was cancelled: the checkpoint under way cannot complete, and none is asked for
     * again.
     */
    public void runnerEnded() {
        synchronized (lock) {
            stopped = true;
            pending = null;
        }
        if (groups != null && thread != null) {
            thread.shutdown(); // a group's run has one attempt: no one else closes it
        }
    }

    /** The checkpoints this run (all its attempts) completed so far. */
    public CheckpointStats stats() {
        return tally.stats();
    }

    /** The newest checkpoint saved by this run, or the one it started from; null if neither. */
    public Checkpoint lastCompleted() {
        return lastCompleted;
    }

    /** Stops asking for checkpoints; a save under way finishes first (waiting up to {@code waitMillis}). */
    public void close(long waitMillis) {
        synchronized (lock) {
            stopped = true;
        }
        ScheduledExecutorService t = thread;
        if (t != null) {
            t.shutdown();
            try {
                if (!t.awaitTermination(waitMillis, TimeUnit.MILLISECONDS)) {
                    t.shutdownNow();
                }
            } catch (InterruptedException e) {
                t.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
    }
}
