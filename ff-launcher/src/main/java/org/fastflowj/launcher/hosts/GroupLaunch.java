package org.fastflowj.launcher.hosts;

import java.util.List;
import org.fastflowj.dist.GroupConfig;

/**
 * How one group is started: the exact argument list of its process, and whether that process is the
 * group itself (local), an ssh client speaking for it (remote), or an srun client of its SLURM step.
 *
 * @param group the group name
 * @param host the machine the group runs on, as the config (or SLURM) names it
 * @param remote whether {@link #argv()} is an ssh client: stopping it means closing its input, so that
 *     the far side stops the group
 * @param argv the command, first word the program
 * @param slurmStep the SLURM step {@link #argv()} (an srun) starts, stopped through SLURM; null unless
 *     {@code --slurm}
 */
public record GroupLaunch(String group, String host, boolean remote, List<String> argv, SlurmStep slurmStep) {
    public GroupLaunch {
        argv = List.copyOf(argv);
    }

    /** A local or ssh launch. */
    public GroupLaunch(String group, String host, boolean remote, List<String> argv) {
        this(group, host, remote, argv, null);
    }

    /** The command as one shell line, as {@code --dry-run} prints it. */
    public String commandLine() {
        return ShellQuoting.join(argv);
    }

    /**
     * How the "started" line names where the group runs: {@code local}, {@code netns ffj1}, {@code ssh node2},
     * {@code srun n1}.
     */
    public String where() {
        if (slurmStep != null) {
            return "srun " + host;
        }
        if (!remote && host.startsWith(GroupConfig.NETNS_HOST_PREFIX)) {
            return "netns " + host.substring(GroupConfig.NETNS_HOST_PREFIX.length());
        }
        return remote ? "ssh " + host : "local";
    }
}
