package org.fastflowj.launcher.hosts;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code srun} step a group runs in, found by its step name in the allocation, and signalled
 * through SLURM.
 *
 * <p>Why not signal {@code srun}: srun answers SIGTERM by killing its step at once (SIGKILL, exit 137),
 * so the group would get no grace period; and a SIGKILLed srun leaves its step running until the
 * allocation ends. {@code scancel --signal=TERM <job>.<step>} reaches the group's processes on their
 * node as a plain SIGTERM, and {@code --signal=KILL} ends a step whose srun is already gone.
 *
 * <p>Threading: immutable; called from the run loop and the shutdown hook.
 *
 * @param jobId the allocation, {@code SLURM_JOB_ID}
 * @param stepName the step's {@code --job-name}, unique to this launcher and group
 */
public record SlurmStep(String jobId, String stepName) {
    /** The SLURM commands are local RPCs to slurmctld: seconds at most, unless the controller is gone. */
    private static final long COMMAND_TIMEOUT_SECONDS = 5;

    /**
     * Sends {@code signal} (TERM, KILL, ...) to the step's processes; returns false when the step is not
     * known (yet, or any more) to SLURM, so that the caller can fall back on signalling srun.
     */
    public boolean signal(String signal) {
        List<String> steps = ids();
        for (String step : steps) {
            run(List.of("scancel", "--signal=" + signal, step));
        }
        return !steps.isEmpty();
    }

    /** The step's {@code <job>.<step>} ids: one, or none before it started or after it ended. */
    private List<String> ids() {
        String out =
                run(List.of("squeue", "--noheader", "--steps", "--jobs=" + jobId, "--name=" + stepName, "--format=%i"));
        List<String> ids = new ArrayList<>();
        out.lines().map(String::strip).filter(id -> id.startsWith(jobId + ".")).forEach(ids::add);
        return ids;
    }

    /** Runs a SLURM command and returns its output; "" when it fails (the caller falls back). */
    private static String run(List<String> command) {
        try {
            SlurmCommand.Result result = SlurmCommand.run(COMMAND_TIMEOUT_SECONDS, command);
            return result.ok() ? result.output() : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
