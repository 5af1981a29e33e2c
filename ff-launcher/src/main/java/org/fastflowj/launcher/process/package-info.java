/**
 * A run's group processes: {@code RunSession} starts them ({@code GroupStarter}), copies their output
 * ({@code GroupOutput}), decides on their exits and news and stops them ({@code GroupStopper}). A
 * group's input is its lifeline, watched on this machine by {@code LocalWatch} and on a remote one by
 * {@code RemoteScript}, which also hands it the run's secret ({@code RunSecret}). A restart ({@code
 * Restart}) first moves the groups of a lost host to a spare one ({@code HostMoves}). It depends on
 * {@link org.fastflowj.launcher.hosts} for the launches and on {@link org.fastflowj.launcher.report} to
 * show what happens, never on the commands.
 */
package org.fastflowj.launcher.process;
