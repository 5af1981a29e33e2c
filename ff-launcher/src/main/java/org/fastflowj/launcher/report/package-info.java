/**
 * What the user sees of a run: every line through the {@code StatusBoard}, the groups' statistics
 * ({@code GroupReports}, {@code StatsTables}, the live page of {@code LauncherMetrics}), shortened stack
 * traces ({@code TraceCondenser}) and which group failed first ({@code FailureReport}). It only reads what
 * it is given: it depends on {@link org.fastflowj.launcher.hosts} for a launch's name and on the root's
 * helpers, never on the commands or the processes, which feed it.
 */
package org.fastflowj.launcher.report;
