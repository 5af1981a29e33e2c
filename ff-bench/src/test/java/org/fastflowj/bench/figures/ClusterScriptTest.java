package org.fastflowj.bench.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.bench.figures.ClusterScript.canMakeNamespaces;
import static org.fastflowj.bench.figures.ClusterScript.cluster;
import static org.fastflowj.bench.figures.ClusterScript.run;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ff-bench/cluster.sh}: {@code up 2} makes two namespaces with their addresses and shaped links that
 * can reach each other, {@code down} removes all of it. Needs root and iproute2; skipped otherwise, saying
 * so. The hosts get a prefix of their own, so a cluster someone else brought up is left alone.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class ClusterScriptTest {
    @Test
    void shouldBringUpShapedHostsThatReachEachOtherAndRemoveThemAll(@TempDir Path dir) throws Exception {
        assumeTrue(canMakeNamespaces(), "cluster.sh needs root and iproute2 (ip, tc): skipped");
        String prefix = "ffjt" + ProcessHandle.current().pid() % 10_000;
        Path state = dir.resolve("cluster.state");
        try {
            ClusterScript.Result up = cluster(prefix, state, "up", "2");
            assertThat(up.exit()).as(up.output()).isZero();

            ClusterScript.Result status = cluster(prefix, state, "status");
            assertThat(status.output())
                    .contains(prefix + "1: 10.213.0.1/24 rate 1Gbit", prefix + "2: 10.213.0.2/24 rate 1Gbit");
            // Host 2 answers a connection to a closed port with a reset: it is reachable through the bridge.
            ClusterScript.Result reach =
                    cluster(prefix, state, "exec", "1", "bash", "-c", "timeout 10 bash -c '</dev/tcp/10.213.0.2/9'");
            assertThat(reach.output()).contains("Connection refused");
            ClusterScript.Result again = cluster(prefix, state, "up", "2");
            assertThat(again.exit()).isEqualTo(2);
            assertThat(again.output()).contains("already up");
        } finally {
            ClusterScript.Result down = cluster(prefix, state, "down");
            assertThat(down.exit()).as(down.output()).isZero();
        }
        assertThat(namespaces()).noneMatch(ns -> ns.startsWith(prefix));
        assertThat(run("ip", "link", "show", prefix + "br0").exit()).isNotZero();
        assertThat(state).doesNotExist();
    }

    @Test
    void shouldRefuseABadHostCountSayingWhy(@TempDir Path dir) throws Exception {
        ClusterScript.Result zero = cluster("ffjx", dir.resolve("state"), "up", "0");

        assertThat(zero.exit()).isEqualTo(2);
        assertThat(zero.output()).contains("N must be 1..250");
        assertThat(dir.resolve("state")).doesNotExist();
    }

    private static List<String> namespaces() throws Exception {
        List<String> names = new ArrayList<>();
        for (String line : run("ip", "netns", "list").output().split("\n")) {
            if (!line.isBlank()) {
                names.add(line.split(" ")[0]);
            }
        }
        return names;
    }
}
