/**
 * The launcher (the 2022 paper's {@code dff_run}): {@link org.fastflowj.launcher.Main} with two picocli
 * commands. {@code run} ({@code RunCommand}) starts one process per group of the config and watches them
 * until every group exited 0 or the first one failed; {@code check} ({@code CheckCommand}) validates the
 * config and compares it with the groups the program creates, starting none.
 *
 * <p>A group starts ({@code LaunchPlanner}, one {@code GroupLaunch} each) as a local process, as a local
 * process in a network namespace ({@code "host": "netns:NAME"}, {@code NamespaceHosts}), through ssh
 * ({@code RemoteScript} stops the remote group when the ssh client's input closes) or as an {@code srun}
 * step of a SLURM allocation ({@code SlurmStep}). A group's input is its lifeline: its end, when the
 * launcher closes it or dies, stops the group ({@code GroupProcess}).
 *
 * <p>Threads: the run's own ({@code RunSession}) and two pump threads per group, which copy its standard
 * output and error line by line to its {@code GroupOutput} (the group-name prefix, the group's log file,
 * the lines a failure report needs); a group's control lines are opened there, not printed. The first
 * failure, the time-out or an interrupt ends the run: {@code GroupStopper} sends SIGTERM to every live
 * group, then SIGKILL after the grace period.
 */
package org.fastflowj.launcher;
