package org.fastflowj.dist.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.function.UnaryOperator;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.checkpoint.GroupCheckpoints;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.runtime.control.RunHooks;

/**
 * A group's checkpoints: its part of each goes to the program's store, one directory per group ({@link
 * GroupCheckpoints}). Which checkpoint a restarted group resumes from, and the number new checkpoints
 * start after, come from the launcher, which chose them for every group alike while none ran: {@value
 * #RESUME_ENV} (0 or unset: start afresh) and {@value #NUMBERED_AFTER_ENV}. A group started without
 * them numbers its checkpoints after the highest one in the store.
 */
final class GroupCheckpointing {
    /** The checkpoint a restarted group resumes from. */
    static final String RESUME_ENV = "DFF_Resume";
    /** The number after which the attempt numbers its checkpoints. */
    static final String NUMBERED_AFTER_ENV = "DFF_CheckpointsAfter";

    private GroupCheckpointing() {}

    /** Starts {@code group}'s part {@code local} of a program in {@code groups} with checkpoints. */
    static Execution start(
            Graph local,
            RunOptions options,
            RunHooks hooks,
            String group,
            Collection<String> groups,
            UnaryOperator<String> env) {
        GroupCheckpoints checkpoints = GroupCheckpoints.of(options.checkpointStore(), group, groups);
        long resumeFrom = number(env, RESUME_ENV, 0);
        long numberedAfter;
        try {
            numberedAfter = number(env, NUMBERED_AFTER_ENV, -1);
            if (numberedAfter < 0) {
                numberedAfter = checkpoints.highestId();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "checkpoints: group " + group + " cannot read " + checkpoints.describe() + ": " + e.getMessage(),
                    e);
        }
        return Executor.startGroupWithCheckpoints(local, options, hooks, checkpoints, resumeFrom, numberedAfter);
    }

    /** A checkpoint number from the environment; {@code absent} if unset. */
    static long number(UnaryOperator<String> env, String name, long absent) {
        String value = env.apply(name);
        if (value == null || value.isBlank()) {
            return absent;
        }
        try {
            long n = Long.parseLong(value.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(
                "environment variable " + name + " must be a checkpoint number (0 or more), not '" + value + "'");
    }
}
