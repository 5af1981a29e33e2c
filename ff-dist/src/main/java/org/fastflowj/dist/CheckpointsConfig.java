package org.fastflowj.dist;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import org.fastflowj.core.checkpoint.CheckpointMode;
import org.fastflowj.core.checkpoint.RestartStrategy;

/**
 * The {@code checkpoints} object of a config: where every group keeps its checkpoints, how often they are
 * taken, and how often the launcher starts every group again from the newest complete one after a failure.
 *
 * <p>The directory is resolved against the config file's folder (against the working directory for {@link
 * DffConfig#parse}) and is not opened while the config is read: every group must see the same folder, a
 * shared file system for groups on several machines.
 *
 * <p>Threading: immutable, safe to share.
 *
 * @param directory the folder the groups' checkpoints go to
 * @param interval the time between the starts of two checkpoints
 * @param mode what a checkpoint guarantees of the state it holds
 * @param retained how many complete checkpoints are kept (at least 2: the newest may be incomplete when a
 *     failure comes)
 * @param restartStrategy how often the launcher restarts the run after a group failed
 */
public record CheckpointsConfig(
        Path directory, Duration interval, CheckpointMode mode, int retained, RestartStrategy restartStrategy) {
    public CheckpointsConfig {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(restartStrategy, "restartStrategy");
    }
}
