package org.fastflowj.launcher.process;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.fastflowj.launcher.Durations;
import org.fastflowj.launcher.ExitStatus;
import org.fastflowj.launcher.report.StatusBoard;

/**
 * The end of a failed, timed-out or interrupted run: SIGTERM to every live group, SIGKILL to those still
 * alive after the grace period, and one line per group saying how it ended. Before a restart, SIGKILL to
 * every live group at once ({@link #killAll}).
 *
 * <p>Threading: used on the run's thread only.
 */
final class GroupStopper {
    /** A SIGKILLed process ends at once; the bound only guards against an unreachable ssh peer. */
    private static final long AFTER_KILL_SECONDS = 10;

    private final Duration grace;
    private final PrintWriter err;
    private final StatusBoard status;

    GroupStopper(Duration grace, PrintWriter err, StatusBoard status) {
        this.grace = grace;
        this.err = err;
        this.status = status;
    }

    /** Stops every group of {@code groups} that is still running, and waits until each has ended. */
    void stopAll(Collection<GroupProcess> groups) throws InterruptedException {
        List<GroupProcess> alive =
                groups.stream().filter(p -> !p.exit().isDone()).toList();
        alive.forEach(p -> {
            status.update(p.launch().group(), "stopping");
            p.terminate();
        });
        long deadlineNs = System.nanoTime() + grace.toNanos();
        for (GroupProcess p : alive) {
            if (!await(p, deadlineNs - System.nanoTime())) {
                say("ff-launcher: group " + p.launch().group() + " did not stop within " + Durations.format(grace)
                        + " of SIGTERM; sending SIGKILL");
                p.kill();
            }
        }
        for (GroupProcess p : alive) {
            if (await(p, TimeUnit.SECONDS.toNanos(AFTER_KILL_SECONDS))) {
                int code = p.exit().join();
                status.update(p.launch().group(), "ended " + code);
                say("ff-launcher: stopped group " + p.launch().group() + ": "
                        + ExitStatus.describe(code, p.launch().remote()));
            } else {
                say("ff-launcher: group " + p.launch().group() + " (pid " + p.pid() + ") is still alive after SIGKILL");
            }
        }
    }

    /**
     * SIGKILL to every group of {@code groups} still running, and waits until each has ended; false after
     * naming each that did not. No SIGTERM first: a graceful stop runs the groups' shutdown hooks, which
     * could delete files the last checkpoint still needs.
     */
    boolean killAll(Collection<GroupProcess> groups) throws InterruptedException {
        List<GroupProcess> alive =
                groups.stream().filter(p -> !p.exit().isDone()).toList();
        alive.forEach(p -> {
            status.update(p.launch().group(), "stopping");
            p.kill();
        });
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(AFTER_KILL_SECONDS);
        boolean allEnded = true;
        for (GroupProcess p : alive) {
            if (await(p, deadlineNs - System.nanoTime())) {
                status.update(p.launch().group(), "ended " + p.exit().join());
            } else {
                allEnded = false;
                say("ff-launcher: group " + p.launch().group() + " (pid " + p.pid() + ") is still alive "
                        + AFTER_KILL_SECONDS + " s after SIGKILL");
            }
        }
        return allEnded;
    }

    private void say(String line) {
        status.emit(err, line);
    }

    private static boolean await(GroupProcess p, long timeoutNs) throws InterruptedException {
        try {
            p.exit().get(Math.max(0, timeoutNs), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }
}
