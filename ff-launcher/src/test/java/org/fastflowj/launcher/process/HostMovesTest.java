package org.fastflowj.launcher.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.CheckpointsConfig.SpareHost;
import org.fastflowj.launcher.hosts.GroupLaunch;
import org.fastflowj.launcher.hosts.SlurmStep;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The rule that moves groups before a restart, over a set of hosts that are down: which hosts are asked,
 * where each lost host's groups go, what is said, and when no restart can follow. {@code
 * SpareHostLaunchTest} loses a real namespace.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HostMovesTest {
    private static final SpareHost S1 = new SpareHost("netns:s1", "10.0.1.2");
    private static final SpareHost S2 = new SpareHost("node9", "node9");

    private final Set<String> down = new HashSet<>();
    private final List<Collection<String>> asked = new ArrayList<>();
    private final List<Map<String, SpareHost>> planned = new ArrayList<>();

    private HostMoves moves(SpareHost... spares) {
        return new HostMoves(
                List.of(spares),
                hosts -> {
                    asked.add(List.copyOf(hosts));
                    Map<String, String> unusable = new LinkedHashMap<>();
                    hosts.stream().filter(down::contains).forEach(h -> unusable.put(h, h + " is down"));
                    return unusable;
                },
                moved -> {
                    planned.add(moved);
                    return launches(moved);
                });
    }

    /** A on node1, B and C on node2, D under SLURM: each moved one on its spare. */
    private static List<GroupLaunch> launches(Map<String, SpareHost> moved) {
        List<GroupLaunch> launches = new ArrayList<>();
        for (String[] g : new String[][] {{"A", "node1"}, {"B", "node2"}, {"C", "node2"}}) {
            String host = moved.containsKey(g[0]) ? moved.get(g[0]).host() : g[1];
            launches.add(new GroupLaunch(g[0], host, true, List.of("ssh", host)));
        }
        launches.add(new GroupLaunch("D", "n1", false, List.of("srun"), new SlurmStep("7", "step-D")));
        return launches;
    }

    @Test
    void shouldKeepEveryGroupWhereItWasWhenNoHostIsLost() {
        List<GroupLaunch> current = launches(Map.of());

        HostMoves.Decision decision = moves(S1).beforeRestart(current);

        assertThat(decision.launches()).isEqualTo(current);
        assertThat(decision.lines()).isEmpty();
        assertThat(decision.impossible()).isNull();
        assertThat(asked).as("every host once, a SLURM node never").containsExactly(List.of("node1", "node2"));
        assertThat(planned).isEmpty();
    }

    @Test
    void shouldMoveEveryGroupOfALostHostToTheFirstSpare() {
        down.add("node2");

        HostMoves.Decision decision = moves(S1, S2).beforeRestart(launches(Map.of()));

        assertThat(decision.impossible()).isNull();
        assertThat(decision.lines())
                .containsExactly(
                        "ff-launcher: group B's host node2 is unreachable (node2 is down); restarting it on spare"
                                + " netns:s1",
                        "ff-launcher: group C's host node2 is unreachable (node2 is down); restarting it on spare"
                                + " netns:s1");
        assertThat(decision.moved()).isEqualTo(Map.of("B", S1, "C", S1));
        assertThat(decision.launches())
                .extracting(GroupLaunch::host)
                .containsExactly("node1", "netns:s1", "netns:s1", "n1");
        assertThat(asked).as("the spare is asked before it is taken").endsWith(List.of("netns:s1"));
    }

    @Test
    void shouldPassOverASpareThatIsDownToo() {
        down.addAll(List.of("node1", "netns:s1"));

        HostMoves.Decision decision = moves(S1, S2).beforeRestart(launches(Map.of()));

        assertThat(decision.lines())
                .containsExactly(
                        "ff-launcher: spare host netns:s1 is unreachable too (netns:s1 is down); passed over",
                        "ff-launcher: group A's host node1 is unreachable (node1 is down); restarting it on spare"
                                + " node9");
        assertThat(planned).containsExactly(Map.of("A", S2));
    }

    @Test
    void shouldMoveAgainOffASpareThatIsLostInItsTurnKeepingEarlierMoves() {
        HostMoves moves = moves(S1, S2);
        down.add("node1");
        List<GroupLaunch> second = moves.beforeRestart(launches(Map.of())).launches();
        down.add("netns:s1");

        HostMoves.Decision third = moves.beforeRestart(second);

        assertThat(third.lines())
                .containsExactly("ff-launcher: group A's host netns:s1 is unreachable (netns:s1 is down); restarting"
                        + " it on spare node9");
        assertThat(planned).containsExactly(Map.of("A", S1), Map.of("A", S2));
    }

    @Test
    void shouldSayTheRunCannotGoOnNamingTheGroupsAndTheirHostWhenNoSpareIsLeft() {
        down.add("node2");

        HostMoves.Decision decision = moves().beforeRestart(launches(Map.of()));

        assertThat(decision.impossible())
                .isEqualTo("groups B and C's host node2 is unreachable (node2 is down) and no spare host is left to"
                        + " restart them on; the run cannot go on");
        assertThat(planned).isEmpty();
    }

    @Test
    void shouldNeverAskAnythingWithoutRestarts() {
        HostMoves.Decision decision = HostMoves.none().beforeRestart(launches(Map.of()));

        assertThat(decision.lines()).isEmpty();
        assertThat(decision.impossible()).isNull();
    }
}
