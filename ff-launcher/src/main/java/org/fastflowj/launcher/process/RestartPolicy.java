package org.fastflowj.launcher.process;

import java.time.Duration;
import java.util.Optional;
import org.fastflowj.core.checkpoint.RestartStrategy;
import org.fastflowj.dist.CheckpointsConfig;
import org.fastflowj.launcher.Durations;

/**
 * Whether a failed run is started again from the last completed checkpoint, as the config's {@code
 * checkpoints.restart} says (ff-core's {@link RestartStrategy}), and how the launcher words each restart.
 * Without {@code checkpoints} in the config, never: there is nothing to resume from.
 *
 * <p>Threading: used on the run's thread only.
 */
public final class RestartPolicy {
    private static final RestartPolicy NEVER = new RestartPolicy(null);

    /** The config's checkpoints; null: none. */
    private final CheckpointsConfig checkpoints;
    /** null: no restart at all. */
    private final CheckpointsConfig.Restart restart;

    private final RestartStrategy.Attempts attempts;

    private RestartPolicy(CheckpointsConfig checkpoints) {
        this.checkpoints = checkpoints;
        this.restart = checkpoints == null ? null : checkpoints.restart();
        this.attempts = restart == null ? null : restart.strategy().attempts();
    }

    /** Restarts as {@code checkpoints} allows; none without it. */
    public static RestartPolicy of(Optional<CheckpointsConfig> checkpoints) {
        return checkpoints.map(RestartPolicy::new).orElse(NEVER);
    }

    /** A failure always ends the run. */
    public static RestartPolicy never() {
        return NEVER;
    }

    /** The config's checkpoints, if it has any: where each attempt's groups start is read from their store. */
    Optional<CheckpointsConfig> checkpoints() {
        return Optional.ofNullable(checkpoints);
    }

    /** Counts a failure at {@code nowNanos}; whether the run is restarted after it. */
    boolean restartAfterFailure(long nowNanos) {
        return attempts != null && attempts.restartAfterFailure(nowNanos);
    }

    /** The restarts granted so far. */
    int restarts() {
        return attempts == null ? 0 : attempts.restarts();
    }

    /** The wait between a failure and the restart. */
    Duration delay() {
        return restart == null ? Duration.ZERO : restart.delay();
    }

    /** The restart just granted, in words: {@code restart 1 of 3}, {@code restart 4, at most 3 within 1 m}. */
    String describeRestart() {
        int n = restarts();
        return restart.failureRateWindow()
                .map(window ->
                        "restart " + n + "; at most " + restart.attempts() + " within " + Durations.format(window))
                .orElse("restart " + n + " of " + restart.attempts());
    }

    /** Why no restart follows a failure, for the final report: {@code after 2 restarts (at most 2)}. */
    String describeEnd() {
        if (restart == null || restart.attempts() == 0) {
            return null;
        }
        String limit = restart.failureRateWindow()
                .map(window -> "at most " + restart.attempts() + " within " + Durations.format(window))
                .orElse("at most " + restart.attempts());
        int n = restarts();
        return "after " + n + (n == 1 ? " restart" : " restarts") + " (" + limit + ")";
    }
}
