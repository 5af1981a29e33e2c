package org.fastflowj.dist.run.lifecycle;

import org.fastflowj.core.runtime.Execution;

/**
 * The group's local run, or, while the group still connects, the first failure waiting for it: a peer
 * may abort or a link break before {@link Execution} exists, and that failure must still fail the run
 * once it starts. As in a running execution, the first failure wins: a peer's ABORT naming the origin
 * is usually followed by the close of its connection, which must not replace it.
 *
 * <p>Threading: {@link #started} on the thread that starts the group, {@link #fail} on any (event loops,
 * watchdogs). The lock guards only the two fields; {@link Execution#fail} runs outside it, as it calls
 * the failure hooks, which wait for the event loops that may be calling {@link #fail}.
 */
public final class LocalRun {
    private record Failure(String origin, String phase, RuntimeException cause) {}

    private Execution execution;
    private Failure early;

    /** The local run started: a failure that came before it fails it now. */
    public void started(Execution started) {
        Failure first;
        synchronized (this) {
            execution = started;
            first = early;
        }
        if (first != null) {
            started.fail(first.origin(), first.phase(), first.cause());
        }
    }

    public void fail(String origin, String phase, RuntimeException cause) {
        Execution ex;
        synchronized (this) {
            ex = execution;
            if (ex == null && early == null) {
                early = new Failure(origin, phase, cause);
            }
        }
        if (ex != null) {
            ex.fail(origin, phase, cause);
        }
    }

    /** Whether the local run was cancelled or failed (false before it starts). */
    public boolean stopped() {
        Execution ex;
        synchronized (this) {
            ex = execution;
        }
        return ex != null && ex.isStopped();
    }
}
