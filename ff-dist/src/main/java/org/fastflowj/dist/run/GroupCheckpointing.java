package org.fastflowj.dist.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.checkpoint.CheckpointStore;
import org.fastflowj.core.checkpoint.GroupCheckpoints;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.runtime.control.RunHooks;
import org.fastflowj.dist.CheckpointStart;
import org.fastflowj.dist.CheckpointsConfig;
import org.fastflowj.dist.DffConfig;

/**
 * A group's checkpoints: its part of each goes to the program's store, one directory per group ({@link
 * GroupCheckpoints}). The config's {@code checkpoints} give them to a program that asks for none in its
 * code (and win over what it asks). Which checkpoint a restarted group resumes from, and the number new
 * checkpoints come after, are the launcher's ({@link CheckpointStart}), chosen for every group alike while
 * none ran; a group started without them numbers its checkpoints after the highest one it finds in the
 * store, which agrees with the others' only when the sources are in one group (a group without sources
 * numbers none itself: it takes the numbers of the barriers that come): start a program whose sources
 * are in several groups through the launcher, or give each group {@code --DFF_CheckpointsAfter}.
 */
final class GroupCheckpointing {
    private GroupCheckpointing() {}

    /** {@code options} with the config's checkpoints, if it has any. */
    static RunOptions withConfig(RunOptions options, DffConfig config) {
        if (config.checkpoints().isEmpty()) {
            return options;
        }
        CheckpointsConfig c = config.checkpoints().get();
        return options.checkpoints(c.interval(), CheckpointStore.directory(c.directory(), c.retained()))
                .checkpointMode(c.mode())
                .fullCheckpointEvery(c.fullEvery());
    }

    /** Starts {@code group}'s part {@code local} of a program in {@code groups} with checkpoints. */
    static Execution start(
            Graph local,
            RunOptions options,
            RunHooks hooks,
            String group,
            Collection<String> groups,
            CheckpointStart start) {
        GroupCheckpoints checkpoints = GroupCheckpoints.of(options.checkpointStore(), group, groups);
        long numberedAfter = start.numberedAfter();
        if (numberedAfter < 0) {
            try {
                numberedAfter = checkpoints.highestId();
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "checkpoints: group " + group + " cannot read " + checkpoints.describe() + ": "
                                + e.getMessage(),
                        e);
            }
        }
        return Executor.startGroupWithCheckpoints(
                local, options, hooks, checkpoints, start.resumeFrom(), numberedAfter);
    }
}
