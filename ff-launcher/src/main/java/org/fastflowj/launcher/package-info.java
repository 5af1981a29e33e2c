/**
 * The launcher (the 2022 paper's {@code dff_run}): {@link org.fastflowj.launcher.Main} with two picocli
 * commands, {@code run} and {@code check}. This package holds {@code Main} and the helpers every package
 * shares (the config option, exit codes in words, durations), which depend on no sub-package:
 *
 * <ul>
 *   <li>{@link org.fastflowj.launcher.commands}: the commands, and the planning only they do;
 *   <li>{@link org.fastflowj.launcher.process}: a run's group processes, started, watched and stopped;
 *   <li>{@link org.fastflowj.launcher.report}: what the user sees of a run;
 *   <li>{@link org.fastflowj.launcher.hosts}: where a group runs, and how its code gets and starts there.
 * </ul>
 *
 * <p>Each package depends only on those listed after it; {@code LauncherPackagesTest} holds them to it.
 */
package org.fastflowj.launcher;
