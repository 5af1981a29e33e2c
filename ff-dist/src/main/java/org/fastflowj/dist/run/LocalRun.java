package org.fastflowj.dist.run;

import org.fastflowj.core.runtime.Execution;

/**
 * The group's local run, or, while the group still connects, the failure waiting for it: a peer may
 * abort or a link break before {@link Execution} exists, and that failure must still fail the run once
 * it starts.
 *
 * <p>Threading: {@link #started} on the thread that starts the group, {@link #fail} on any (event loops,
 * watchdogs). Each writes its own volatile field, then reads the other's: with volatile (sequentially
 * consistent) accesses at least one of the two sees both, so a failure is never lost; both may apply it,
 * which is harmless, as an execution keeps its first failure.
 */
final class LocalRun {
    private record Failure(String origin, String phase, RuntimeException cause) {}

    private volatile Execution execution;
    private volatile Failure pending;

    /** The local run started: a failure that came before it fails it now. */
    void started(Execution started) {
        execution = started;
        Failure early = pending;
        if (early != null) {
            started.fail(early.origin(), early.phase(), early.cause());
        }
    }

    public void fail(String origin, String phase, RuntimeException cause) {
        pending = new Failure(origin, phase, cause);
        Execution ex = execution;
        if (ex != null) {
            ex.fail(origin, phase, cause);
        }
    }

    /** Whether the local run was cancelled or failed (false before it starts). */
    boolean stopped() {
        Execution ex = execution;
        return ex != null && ex.isStopped();
    }
}
