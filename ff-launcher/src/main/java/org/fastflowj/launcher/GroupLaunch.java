package org.fastflowj.launcher;

import java.util.List;

/**
 * How one group is started: the exact argument list of its process, and whether that process is the
 * group itself (local) or an ssh client speaking for it (remote).
 *
 * @param group the group name
 * @param host the machine the group runs on, as the config (or SLURM) names it
 * @param remote whether {@link #argv()} is an ssh client: stopping it means closing its input, so that
 *     the far side stops the group
 * @param argv the command, first word the program
 */
record GroupLaunch(String group, String host, boolean remote, List<String> argv) {
    GroupLaunch {
        argv = List.copyOf(argv);
    }

    /** The command as one shell line, as {@code --dry-run} prints it. */
    String commandLine() {
        return ShellQuoting.join(argv);
    }
}
