/**
 * The picocli commands {@code run} and {@code check}, and what only they do before a run: read the config
 * ahead ({@code Prefetch}), ask the program its groups ({@code ProgramGroups}), review the ports
 * ({@code PortReview}) and plan one launch per group ({@code LaunchPlanner}, {@code SlurmPlanner}). A
 * command hands the run itself to {@link org.fastflowj.launcher.process}. It may depend on every other
 * package of the launcher; nothing but {@code Main} depends on it.
 */
package org.fastflowj.launcher.commands;
