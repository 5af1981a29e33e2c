package org.fastflowj.launcher.process;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.Consumer;
import org.fastflowj.launcher.Durations;
import org.fastflowj.launcher.report.StatusBoard;

/**
 * The restart of a failed run from its last completed checkpoint: one line naming the failure, SIGKILL to
 * every group still running (a graceful stop would run shutdown hooks that may delete what the checkpoint
 * still needs), the policy's delay, and every group started again from the newest checkpoint complete in
 * every group ({@link CheckpointPositions}), each group of a host found lost moved to a spare one
 * ({@link HostMoves}); then the time from the failure to every group started.
 *
 * <pre>
 *   ff-launcher: group G2 failed: exit code 3; restarting every group from the last completed checkpoint (restart 1 of 3, in 1 s)
 *   ff-launcher: group G2's host node2 is unreachable (`true` there exited 255: ...); restarting it on spare node3
 *   ff-launcher: started 2 of 2 groups in 45 ms: G1 (local, pid 4242) G2 (local, pid 4243)
 *   ff-launcher: every group restarted in 1.05 s
 * </pre>
 *
 * <p>Threading: used on the run's thread only.
 */
final class Restart {
    /** The policy's delay, during which the run may end: an exit code then, else null. */
    interface Delay {
        Integer await(long delayNanos) throws InterruptedException;
    }

    private final RestartPolicy policy;
    private final GroupStarter starter;
    private final GroupStopper stopper;
    private final StatusBoard status;
    private final PrintWriter err;
    private final Consumer<GroupProcess> watch;
    private final HostMoves moves;
    private GroupStarter.StartFailure startFailure;

    /**
     * @param watch sees every group started again, as the first start's did
     * @param moves moves the groups of a lost host to a spare one before they start again
     */
    Restart(
            RestartPolicy policy,
            GroupStarter starter,
            GroupStopper stopper,
            StatusBoard status,
            PrintWriter err,
            Consumer<GroupProcess> watch,
            HostMoves moves) {
        this.moves = moves;
        this.policy = policy;
        this.starter = starter;
        this.stopper = stopper;
        this.status = status;
        this.err = err;
        this.watch = watch;
    }

    /** Counts a failure; whether the policy restarts the run after it. */
    boolean allowedAfterFailure() {
        return policy.restartAfterFailure(System.nanoTime());
    }

    /** The attempt the running groups belong to: 0 until the first restart. */
    int attempt() {
        return starter.attempt();
    }

    /**
     * Restarts every group after {@code failure}, which {@link #allowedAfterFailure} allowed: null once they
     * are started again (see {@link #startFailure}), else the exit code of a run that ended meanwhile.
     */
    Integer run(String failure, Delay delay) throws InterruptedException {
        long failedNs = System.nanoTime();
        String restart = policy.describeRestart();
        say("ff-launcher: " + failure + "; restarting every group from the last completed checkpoint (" + restart
                + ", in " + Durations.format(policy.delay()) + ")");
        if (!stopper.killAll(starter.running())) {
            // A group started next to its living predecessor would write the same checkpoints.
            say("ff-launcher: cannot restart while a group of the failed attempt is alive; stopping every group");
            stopper.stopAll(starter.running());
            return RunSession.EXIT_GROUP_FAILED;
        }
        Integer ended = delay.await(policy.delay().toNanos());
        if (ended != null) {
            return ended;
        }
        // After the delay: a host that comes back within it keeps its groups.
        HostMoves.Decision decision = moves.beforeRestart(starter.launches());
        decision.lines().forEach(this::say);
        if (decision.impossible() != null) {
            say("ff-launcher: " + decision.impossible());
            return RunSession.EXIT_GROUP_FAILED;
        }
        status.restarted(policy.restarts());
        decision.moved().forEach((group, spare) -> status.moved(group, spare.host()));
        StringBuilder why = new StringBuilder(restart + " after " + failure);
        decision.moved().forEach((group, spare) -> why.append("; group ")
                .append(group)
                .append(" moved to spare ")
                .append(spare.host()));
        startFailure =
                starter.restartAll(decision.launches(), watch, why + "; resuming from the last completed checkpoint");
        if (startFailure == null) {
            double seconds = (System.nanoTime() - failedNs) / 1e9;
            say(String.format(Locale.ROOT, "ff-launcher: every group restarted in %.2f s", seconds));
        }
        return null;
    }

    /** The group of the last {@link #run} that could not start again, or null. */
    GroupStarter.StartFailure startFailure() {
        return startFailure;
    }

    /** Part of the final report when restarts were allowed: how many were made. */
    void sayNoneLeft() {
        String end = policy.describeEnd();
        if (end != null) {
            say("ff-launcher: no restart left: the run failed " + end);
        }
    }

    private void say(String line) {
        status.emit(err, line);
    }
}
