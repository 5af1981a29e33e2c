package org.fastflowj.core.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.QueueStats;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.runtime.channel.ChannelEnd;
import org.fastflowj.core.runtime.channel.NodeThreads;
import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.runtime.control.CheckpointCoordinator;
import org.fastflowj.core.runtime.control.RunControl;

/** A started run: its threads, its failure if any, its statistics. */
public final class Execution implements GraphRun {
    /** After a failure, how long to wait for node threads stuck in user code before giving up on them. */
    static final long CANCEL_GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final ChannelEnd[] runners;
    private final NodeThreads.Run[] threads;
    private final RunControl control;
    /** The channels that carry items (forward and feedback), in graph order, for their fill. */
    private final SpscChannel[] channels;

    Execution(ChannelEnd[] runners, NodeThreads.Run[] threads, RunControl control, SpscChannel[] channels) {
        this.runners = runners;
        this.threads = threads;
        this.control = control;
        this.channels = channels;
    }

    /**
     * Waits for every node thread. If a node failed, the others are cancelled, and this throws the first
     * failure; threads that ignore cancellation for more than 10 s are named in a suppressed exception.
     * If the caller is interrupted, the run is cancelled.
     *
     * @throws CancellationException if the run was cancelled without a failure
     */
    public void await() {
        awaitUntil(Long.MAX_VALUE);
    }

    /**
     * Waits at most {@code timeout} for every node thread; as {@link #await()} once they ended.
     *
     * @return false if the run is still going when the time is up (it goes on)
     */
    public boolean await(long timeout, TimeUnit unit) {
        long now = System.nanoTime();
        long nanos = unit.toNanos(timeout);
        return awaitUntil(nanos >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + nanos);
    }

    private boolean awaitUntil(long deadlineNanos) {
        boolean interrupted = false;
        for (NodeThreads.Run t : threads) {
            while (t.isAlive()) {
                if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos >= 0) {
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                    return deadlineReached();
                }
                try {
                    t.join(50);
                } catch (InterruptedException e) {
                    interrupted = true;
                    control.cancel(); // the caller gave up on the run: stop it
                }
                if (control.cancelled && System.nanoTime() - control.cancelledAtNanos() > CANCEL_GRACE_NANOS) {
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        NodeFailedException failure = control.failure();
        List<String> stuck = new ArrayList<>();
        for (NodeThreads.Run t : threads) {
            if (t.isAlive()) {
                stuck.add(t.name);
            }
        }
        if (failure != null) {
            if (!stuck.isEmpty()) {
                failure.addSuppressed(
                        new IllegalStateException("node threads still running after cancellation: " + stuck));
            }
            throw failure;
        }
        if (control.cancelled) {
            CancellationException cancelled = new CancellationException("the run was cancelled"
                    + (stuck.isEmpty() ? "" : "; node threads still running after 10 s: " + stuck));
            throw cancelled;
        }
        return true;
    }

    /**
     * A timed wait ran out while node threads are still alive: a run that already failed or was
     * cancelled reports that now (its threads are still winding down); a live run is simply not over.
     */
    private boolean deadlineReached() {
        NodeFailedException failure = control.failure();
        if (failure != null) {
            throw failure;
        }
        if (control.cancelled) {
            throw new CancellationException("the run was cancelled (node threads still winding down)");
        }
        return false;
    }

    /** Whether the run failed or was cancelled (its threads may still be winding down). Never waits. */
    public boolean isStopped() {
        return control.cancelled;
    }

    /** Whether every node thread has ended. */
    public boolean isDone() {
        for (NodeThreads.Run t : threads) {
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Fails the run from outside its nodes (ff-dist: a peer group failed or its link broke), as if node
     * {@code origin} had thrown {@code cause}; the first failure of a run wins. Any thread.
     */
    public void fail(String origin, String phase, Throwable cause) {
        control.fail(origin, phase, cause);
    }

    /** Cancels the run: every node thread stops at its next check. */
    public void cancel() {
        if (!isDone()) {
            control.cancel(); // a run that already ended stays a normal end
        }
    }

    /** The runner of the vertex named {@code name}, or null (for tests of the run-time). */
    public ChannelEnd runner(String name) {
        for (ChannelEnd r : runners) {
            if (r.name.equals(name)) {
                return r;
            }
        }
        return null;
    }

    /**
     * The counters of every node thread, the links' and every channel's fill as they are now; any thread,
     * during the run or after it.
     */
    public RunStats stats() {
        List<NodeStats> list = new ArrayList<>();
        for (ChannelEnd r : runners) {
            list.add(r.stats());
        }
        List<QueueStats> queues = new ArrayList<>(channels.length);
        for (SpscChannel ch : channels) {
            queues.add(new QueueStats(
                    ch.producer.name, ch.consumer.name, ch.feedback, ch.queuedItems(), ch.capacityItems()));
        }
        CheckpointCoordinator checkpoints = control.checkpoints;
        return new RunStats(
                list,
                control.hooks.linkStats().get(),
                queues,
                checkpoints == null ? Optional.empty() : Optional.of(checkpoints.stats()));
    }
}
