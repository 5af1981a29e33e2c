package org.fastflowj.launcher.process;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fastflowj.dist.CheckpointsConfig.SpareHost;
import org.fastflowj.launcher.hosts.GroupLaunch;

/**
 * Before a restart, moves the groups of every host that is lost to a spare one
 * ({@code checkpoints.restart.spareHosts}): no group is started again on a host that cannot run it.
 *
 * <p>The rule: every host of the attempt is probed (not only the failed group's: when a machine dies, its
 * peers often report the failure first); each group of a lost host moves, with the other groups of that
 * host, to the first spare still free that answers the probe; a spare that does not is passed over for
 * good. Groups on this machine and SLURM steps are never moved. A lost host with no spare left ends the
 * run: the groups it held cannot start anywhere.
 *
 * <pre>
 *   ff-launcher: group W1's host netns:ffj1 is unreachable (no network namespace 'ffj1' on this machine); restarting it on spare netns:ffj3
 * </pre>
 *
 * <p>Threading: used on the run's thread only.
 */
public final class HostMoves {
    /** The hosts, as a group's {@code host} names them, that cannot run a group now, each with why. */
    public interface Probe {
        Map<String, String> unusable(Collection<String> hosts);
    }

    /** Every group's launch for a config in which each group of {@code moved} runs on its spare. */
    public interface Planner {
        List<GroupLaunch> plan(Map<String, SpareHost> moved) throws IOException;
    }

    /**
     * What comes before a restart: the launches of the next attempt, what to say of the moves, and
     * whether the run cannot restart at all.
     *
     * @param launches every group's launch for the next attempt (the current ones when nothing moved)
     * @param lines the moves, in words, one line each
     * @param moved each group moved by this decision, and the spare it goes to, in the order of the lines
     * @param impossible why no restart can follow, or null
     */
    public record Decision(
            List<GroupLaunch> launches, List<String> lines, Map<String, SpareHost> moved, String impossible) {
        public Decision {
            launches = List.copyOf(launches);
            lines = List.copyOf(lines);
            moved = Collections.unmodifiableMap(new LinkedHashMap<>(moved));
        }
    }

    private static final HostMoves NONE = new HostMoves(List.of(), hosts -> Map.of(), moved -> {
        throw new IllegalStateException("no spare host to move to");
    });

    private final List<SpareHost> spares;
    private final Probe probe;
    private final Planner planner;
    /** Every group moved so far, each to the spare it runs on now. */
    private final Map<String, SpareHost> moved = new LinkedHashMap<>();

    public HostMoves(List<SpareHost> spares, Probe probe, Planner planner) {
        this.spares = new ArrayList<>(spares);
        this.probe = probe;
        this.planner = planner;
    }

    /** No host is ever probed, no group moved: a run without restarts, or under SLURM. */
    public static HostMoves none() {
        return NONE;
    }

    /** Probes the hosts of {@code current}, the attempt that failed, and moves the groups of those lost. */
    Decision beforeRestart(List<GroupLaunch> current) {
        Map<String, List<String>> groupsByHost = new LinkedHashMap<>();
        for (GroupLaunch launch : current) {
            if (launch.slurmStep() == null) {
                groupsByHost
                        .computeIfAbsent(launch.host(), h -> new ArrayList<>())
                        .add(launch.group());
            }
        }
        Map<String, String> lost = probe.unusable(groupsByHost.keySet());
        if (lost.isEmpty()) {
            return new Decision(current, List.of(), Map.of(), null);
        }
        List<String> lines = new ArrayList<>();
        Map<String, SpareHost> now = new LinkedHashMap<>();
        for (Map.Entry<String, String> host : lost.entrySet()) {
            List<String> groups = groupsByHost.get(host.getKey());
            String owners = owners(groups) + "'s host " + host.getKey() + " is unreachable (" + host.getValue() + ")";
            SpareHost spare = nextSpare(lines);
            if (spare == null) {
                String why = owners + " and no spare host is left to restart " + (groups.size() == 1 ? "it" : "them")
                        + " on; the run cannot go on";
                return new Decision(current, lines, now, why);
            }
            for (String group : groups) {
                now.put(group, spare);
                lines.add("ff-launcher: group " + group + "'s host " + host.getKey() + " is unreachable ("
                        + host.getValue() + "); restarting it on spare " + spare.host());
            }
        }
        moved.putAll(now);
        try {
            return new Decision(planner.plan(Map.copyOf(moved)), lines, now, null);
        } catch (IOException e) {
            return new Decision(current, lines, now, "cannot start the moved groups: " + e.getMessage());
        }
    }

    /** The first spare still free that answers the probe, or null; each one that does not is dropped, said in {@code lines}. */
    private SpareHost nextSpare(List<String> lines) {
        while (!spares.isEmpty()) {
            SpareHost spare = spares.remove(0);
            String why = probe.unusable(List.of(spare.host())).get(spare.host());
            if (why == null) {
                return spare;
            }
            lines.add("ff-launcher: spare host " + spare.host() + " is unreachable too (" + why + "); passed over");
        }
        return null;
    }

    private static String owners(List<String> groups) {
        if (groups.size() == 1) {
            return "group " + groups.get(0);
        }
        return "groups " + String.join(", ", groups.subList(0, groups.size() - 1)) + " and "
                + groups.get(groups.size() - 1);
    }
}
