package org.fastflowj.core.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.NodeStats;
import org.fastflowj.core.RunStats;

/** A started run: its threads, its failure if any, its statistics. */
public final class Execution {
    /** After a failure, how long to wait for node threads stuck in user code before giving up on them. */
    static final long CANCEL_GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final NodeRunner[] runners;
    private final Thread[] threads;
    private final RunControl control;

    Execution(NodeRunner[] runners, Thread[] threads, RunControl control) {
        this.runners = runners;
        this.threads = threads;
        this.control = control;
    }

    /**
     * Waits for every node thread. If a node failed, the others are cancelled, and this throws the first
     * failure; threads that ignore cancellation for more than 10 s are named in a suppressed exception.
     */
    public void await() {
        boolean interrupted = false;
        for (Thread t : threads) {
            while (t.isAlive()) {
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
        for (Thread t : threads) {
            if (t.isAlive()) {
                stuck.add(t.getName());
            }
        }
        if (failure != null) {
            if (!stuck.isEmpty()) {
                failure.addSuppressed(new IllegalStateException("node threads still running after cancellation: " + stuck));
            }
            throw failure;
        }
        if (control.cancelled) {
            throw new IllegalStateException("the run was cancelled (waitEnd was interrupted)");
        }
    }

    /** Whether every node thread has ended. */
    public boolean isDone() {
        for (Thread t : threads) {
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }

    /** Cancels the run: every node thread stops at its next check. */
    public void cancel() {
        control.cancel();
    }

    public RunStats stats() {
        List<NodeStats> list = new ArrayList<>();
        for (NodeRunner r : runners) {
            list.add(r.stats());
        }
        return new RunStats(list);
    }
}
