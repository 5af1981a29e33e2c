package org.fastflowj.launcher.hosts;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;

/**
 * Groups whose {@code host} is {@code netns:NAME}: started on this machine inside network namespace NAME,
 * as {@code ip netns exec NAME COMMAND...}. {@code ip} enters the namespace and replaces itself with the
 * command ({@code execvp}, no fork), so the group keeps the pid, the input pipe, the output pipes and the
 * exit status a local group has, and the launcher watches it the same way.
 *
 * <p>Entering a namespace takes root (CAP_SYS_ADMIN): {@link #problems} says, before anything starts, which
 * group cannot start and why.
 *
 * <p>Threading: stateless; {@link Machine} is immutable.
 */
public final class NamespaceHosts {
    /** Where {@code ip netns add NAME} makes the file that holds namespace NAME (iproute2's NETNS_RUN_DIR). */
    static final Path NETNS_RUN_DIR = Path.of("/var/run/netns");

    private NamespaceHosts() {}

    /** {@code argv} started inside {@code namespace}. */
    public static List<String> enter(String namespace, List<String> argv) {
        List<String> entered = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        entered.addAll(argv);
        return entered;
    }

    /** What a namespace group needs of this machine: root, iproute2's {@code ip}, and the namespace itself. */
    public record Machine(long uid, boolean hasIp, Predicate<String> namespaceExists) {
        /** This machine, as the launcher runs on it. */
        public static Machine detect() {
            return new Machine(effectiveUid(), onPath("ip"), name -> Files.exists(NETNS_RUN_DIR.resolve(name)));
        }
    }

    /**
     * One line per group of {@code config} started in a namespace that cannot start here, naming the group,
     * its line in the config, and what is missing; empty when every such group can start.
     */
    public static List<String> problems(DffConfig config, Machine machine) {
        List<String> problems = new ArrayList<>();
        for (GroupConfig g : config.groups()) {
            g.launchNamespace().ifPresent(namespace -> {
                String group = config.source() + ":" + g.line() + ":" + g.column() + ": group '" + g.name() + "' (host "
                        + g.launchHost() + "): ";
                if (machine.uid() != 0) {
                    problems.add(group + "entering a network namespace needs root; the launcher runs as "
                            + (machine.uid() < 0 ? "a user /proc/self does not name" : "uid " + machine.uid()));
                } else if (!machine.hasIp()) {
                    problems.add(
                            group + "no 'ip' command on the PATH to enter the namespace with; install" + " iproute2");
                } else if (!machine.namespaceExists().test(namespace)) {
                    problems.add(group + "no network namespace '" + namespace + "' on this machine (`ip netns"
                            + " list` shows them; `ip netns add " + namespace + "` makes one)");
                }
            });
        }
        return problems;
    }

    /** The launcher's effective uid: the owner of /proc/self; -1 when /proc cannot say. */
    private static long effectiveUid() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).longValue();
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return -1;
        }
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null
                && Stream.of(path.split(File.pathSeparator))
                        .filter(dir -> !dir.isEmpty())
                        .anyMatch(dir -> Files.isExecutable(Path.of(dir, program)));
    }
}
