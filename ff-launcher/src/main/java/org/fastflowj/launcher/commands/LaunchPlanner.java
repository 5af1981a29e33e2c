package org.fastflowj.launcher.commands;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.launcher.hosts.CdsArchive;
import org.fastflowj.launcher.hosts.GroupLaunch;
import org.fastflowj.launcher.hosts.JavaCommand;
import org.fastflowj.launcher.hosts.LocalHosts;
import org.fastflowj.launcher.hosts.NamespaceHosts;
import org.fastflowj.launcher.hosts.RemoteOptions;
import org.fastflowj.launcher.hosts.ShellQuoting;
import org.fastflowj.launcher.process.RemoteScript;

/**
 * Turns a config and the application's command into one {@link GroupLaunch} per group: a local process
 * where the group's host is this machine, a local process inside a network namespace where it is
 * {@code netns:NAME} ({@link NamespaceHosts}), an ssh client otherwise.
 *
 * <pre>
 *   local, no preCmd:   command... --DFF_GName=G1 --DFF_Config=/abs/app.json --DFF_Report
 *   local, preCmd:      /bin/sh -c '&lt;preCmd&gt; command... --DFF_GName=G1 ...'
 *   netns:NAME:         ip netns exec NAME &lt;the local command&gt;
 *   remote:             ssh -T -o BatchMode=yes [-i ..] [-o ..] [-l ..] host '&lt;stop-watching wrapper&gt;'
 * </pre>
 *
 * A group's {@code jvmArgs} go right after the program when it is {@code java}, else into
 * {@code JDK_JAVA_OPTIONS} (read by every {@code java} a script starts). The remote wrapper is
 * {@link RemoteScript}'s.
 *
 * <p>Threading: used on the main thread, then on the run's thread for a restart that moves groups.
 */
final class LaunchPlanner {
    private final DffConfig config;
    private final Path configFile;
    private final List<String> command;
    private final RemoteOptions remote;
    private final LocalHosts localHosts;
    private final Duration remoteGrace;
    private final CdsArchive cds;
    /** The class archive options each local group was given, by group. */
    private final Map<String, List<String>> cdsOptions = new HashMap<>();

    LaunchPlanner(
            DffConfig config,
            Path configFile,
            List<String> command,
            RemoteOptions remote,
            LocalHosts localHosts,
            Duration remoteGrace) {
        this(config, configFile, command, remote, localHosts, remoteGrace, null);
    }

    /** @param cds the class archive of the local java groups ({@code --cds}), or null for none */
    LaunchPlanner(
            DffConfig config,
            Path configFile,
            List<String> command,
            RemoteOptions remote,
            LocalHosts localHosts,
            Duration remoteGrace,
            CdsArchive cds) {
        this.cds = cds;
        this.config = config;
        this.configFile = configFile.toAbsolutePath().normalize();
        this.command = List.copyOf(command);
        this.remote = remote;
        this.localHosts = localHosts;
        this.remoteGrace = remoteGrace;
    }

    /** One launch per group, in config order. */
    List<GroupLaunch> plan() {
        return plan(config, configFile);
    }

    /**
     * One launch per group of {@code other}, a config written by the launcher (groups moved to spare hosts),
     * each group told {@code otherFile}; a local group keeps the class archive options it had.
     */
    List<GroupLaunch> plan(DffConfig other, Path otherFile) {
        return other.groups().stream().map(g -> plan(g, otherFile)).toList();
    }

    private GroupLaunch plan(GroupConfig group, Path file) {
        List<String> appCommand = applicationCommand(group, file.toString());
        String host = group.launchHost();
        // A namespace host is no name to resolve: it is decided before LocalHosts would look it up.
        Optional<String> namespace = group.launchNamespace();
        if (namespace.isPresent() || localHosts.isLocal(host)) {
            if (cds != null) {
                // Asked once per group: the archive has one writer, which must stay the same group.
                List<String> options = cdsOptions.computeIfAbsent(group.name(), g -> cds.nextGroupOptions());
                appCommand = JavaCommand.withJvmOptions(appCommand, options);
            }
            List<String> argv = local(appCommand, group);
            return new GroupLaunch(
                    group.name(),
                    host,
                    false,
                    namespace.map(name -> NamespaceHosts.enter(name, argv)).orElse(argv));
        }
        String script =
                RemoteScript.wrap(remote.remoteDir(), withPreCmd(ShellQuoting.join(appCommand), group), remoteGrace);
        List<String> argv = remote.sshTo(host, script);
        return new GroupLaunch(group.name(), host, true, argv);
    }

    /**
     * The application's command for {@code group}: its jvmArgs placed, then the DFF options: the group, the
     * config, and the statistics reports the launcher shows ({@link org.fastflowj.launcher.report.GroupReports}).
     */
    List<String> applicationCommand(GroupConfig group, String configPath) {
        List<String> argv = new ArrayList<>();
        List<String> jvmArgs = group.jvmArgs();
        if (!jvmArgs.isEmpty() && JavaCommand.isJava(command.get(0))) {
            argv.add(command.get(0));
            argv.addAll(jvmArgs);
            argv.addAll(command.subList(1, command.size()));
        } else if (!jvmArgs.isEmpty()) {
            argv.add("env");
            argv.add("JDK_JAVA_OPTIONS=" + String.join(" ", jvmArgs));
            argv.addAll(command);
        } else {
            argv.addAll(command);
        }
        argv.add(DFF.GROUP_OPTION + "=" + group.name());
        argv.add(DFF.CONFIG_OPTION + "=" + configPath);
        argv.add(DFF.REPORT_OPTION);
        return argv;
    }

    private static List<String> local(List<String> appCommand, GroupConfig group) {
        if (group.preCmd().isEmpty()) {
            return appCommand;
        }
        return List.of("/bin/sh", "-c", withPreCmd(ShellQuoting.join(appCommand), group));
    }

    /**
     * FastFlow's rule: the preCmd is written in front of the command, so it can be a prefix
     * ({@code taskset -c 0-3}, {@code env X=1}) or a step of its own when it ends in {@code &&} or
     * {@code ;} ({@code module load java &&}).
     */
    static String withPreCmd(String commandLine, GroupConfig group) {
        return group.preCmd().map(pre -> pre + " " + commandLine).orElse(commandLine);
    }
}
