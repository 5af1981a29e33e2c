package org.fastflowj.launcher.process;

import java.io.IOException;
import java.util.Collection;
import org.fastflowj.core.checkpoint.GroupCheckpoints;
import org.fastflowj.dist.CheckpointStart;
import org.fastflowj.dist.CheckpointsConfig;
import org.fastflowj.dist.DFF;

/**
 * Where an attempt's groups start in the config's checkpoint store, chosen once for all of them while
 * none runs: a restart resumes every group from the newest checkpoint complete in every group and whole
 * ({@link DFF#RESUME_ENV}), and every attempt numbers its checkpoints after the highest one in the store
 * ({@link DFF#CHECKPOINTS_AFTER_ENV}), so that the sources of every group put in the same barriers. A
 * group cannot choose this itself: a group already running writes the store while another still reads it.
 *
 * <p>The launcher reads the store at the config's path: groups on other hosts must see it at the same
 * path (a shared file system).
 *
 * <p>Threading: used on the run's thread only.
 */
final class CheckpointPositions {
    private final GroupCheckpoints store;

    private CheckpointPositions(GroupCheckpoints store) {
        this.store = store;
    }

    /** The positions in {@code checkpoints}' store of a program of {@code groups}. */
    static CheckpointPositions of(CheckpointsConfig checkpoints, Collection<String> groups) {
        return new CheckpointPositions(
                GroupCheckpoints.of(checkpoints.directory(), checkpoints.retained(), null, groups));
    }

    /**
     * Where the next attempt starts: a first start only numbers its checkpoints, a restart resumes.
     *
     * @throws IOException if the store cannot be read
     */
    CheckpointStart next(boolean restart) throws IOException {
        long highest = store.highestId();
        return new CheckpointStart(restart ? store.newestComplete() : -1, highest);
    }

    /** For the log files and the restart line: where an attempt's groups start. */
    static String describe(CheckpointStart start) {
        if (!start.resumes()) {
            return "numbering checkpoints after " + start.numberedAfter();
        }
        return start.resumeFrom() == 0
                ? "no checkpoint is complete in every group: every group starts afresh"
                : "every group resumes from checkpoint " + start.resumeFrom();
    }

    /** Where the store is, for messages. */
    String describeStore() {
        return store.describe();
    }
}
