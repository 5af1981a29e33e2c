package org.fastflowj.examples;

import java.nio.file.Path;
import java.time.Duration;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.RestartStrategy;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --checkpoints DIR [--checkpoint-interval DURATION] [--full-checkpoint-every N] [--resume]}: checkpoints of a program run whole in
 * this process, up to 3 restarts from the last one when a node fails, and a new run that resumes from the
 * newest one in DIR. A
 * program run as groups takes them from its config's {@code checkpoints} instead, where the launcher can
 * restart every group, so a group process refuses these options.
 */
public final class CheckpointOptions {
    /** Restarts after a node failure before the run fails with it. */
    static final int RESTARTS = 3;

    @Option(
            names = "--checkpoints",
            paramLabel = "DIR",
            description = {
                "Take checkpoints into DIR and restart from the last one (3 times at most) when a node",
                "fails; as groups, the config's \"checkpoints\" instead."
            })
    private Path directory;

    @Option(
            names = "--checkpoint-interval",
            paramLabel = "DURATION",
            description = "Between two checkpoints, as PT1S (default: ${DEFAULT-VALUE}).")
    private Duration interval = Duration.ofSeconds(1);

    @Option(names = "--resume", description = "Resume from the newest checkpoint in --checkpoints.")
    private boolean resume;

    @Option(
            names = "--full-checkpoint-every",
            paramLabel = "N",
            description = {
                "Incremental checkpoints: nodes that can write only what changed since the last checkpoint",
                "do, and their whole state once in N (default: ${DEFAULT-VALUE}, every one whole)."
            })
    private int fullEvery = 1;

    /** Whether {@code --checkpoints} was given. */
    public boolean requested() {
        return directory != null;
    }

    /** {@code options} with these checkpoints and their restarts, if asked for; refuses them in a group. */
    public RunOptions applyTo(RunOptions options, CommandSpec spec) {
        if (directory == null && resume) {
            throw new ParameterException(spec.commandLine(), "--resume needs --checkpoints DIR");
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new ParameterException(spec.commandLine(), "--checkpoint-interval must be positive, got " + interval);
        }
        if (fullEvery < 1) {
            throw new ParameterException(
                    spec.commandLine(), "--full-checkpoint-every must be at least 1, got " + fullEvery);
        }
        if (directory == null) {
            return options;
        }
        if (!AppRun.wholeProgram()) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--checkpoints is for one process; as groups, give the config a \"checkpoints\" object");
        }
        return options.checkpoints(interval, CheckpointStore.directory(directory))
                .restartStrategy(RestartStrategy.fixedDelay(RESTARTS, Duration.ofSeconds(1)))
                .resumeFromCheckpoint(resume)
                .fullCheckpointEvery(fullEvery);
    }
}
