/**
 * Where a group runs and how its code gets and starts there: this machine ({@code LocalHosts}), a network
 * namespace of it ({@code NamespaceHosts}), another host through ssh ({@code RemoteOptions},
 * {@code Shipper}) or a SLURM step ({@code SlurmAllocation}, {@code SlurmStep}), each planned as a
 * {@code GroupLaunch}; whether a host can run a group now ({@code HostProbe}); and the caches that make a second start faster ({@code LauncherCache},
 * {@code CdsArchive}, {@code GroupCheckCache}). It is the bottom layer: it depends on no other package of
 * the launcher, so that any of them can describe a group's launch.
 */
package org.fastflowj.launcher.hosts;
