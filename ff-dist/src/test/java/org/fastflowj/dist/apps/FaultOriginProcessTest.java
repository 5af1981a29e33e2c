package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each group a real JVM: when the application fails anywhere, every group exits non-zero, also one whose
 * own part had ended, and every group names the same origin on its {@code DFF_FAILED:} line.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FaultOriginProcessTest {
    private static final List<String> GROUPS = List.of("A", "B", "C");

    @TempDir
    Path dir;

    @Test
    void shouldFailEveryGroupWhenTheSinkFailsAfterTheOtherGroupsPartsEnded() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "");
        try (ProcessCluster cluster =
                ProcessCluster.start(PipelineApp.class, config, GROUPS, List.of(), "1000", "-1", "0", "true")) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code != 0);
            // A's part ended before C failed: it waited for the others instead of exiting 0
            assertThat(cluster.output("A")).as(cluster.allOutput()).contains("group A's part ended");
            for (String g : GROUPS) {
                assertThat(cluster.output(g)).as(g).contains("DFF_FAILED: C\n").contains("the sink fails at its end");
            }
        }
    }

    @Test
    void shouldNameTheFrozenGroupEverywhereAlsoInItselfOnceResumed() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "\"heartbeatIntervalMs\": 300, \"heartbeatTimeoutMs\": 2000");
        try (ProcessCluster cluster =
                ProcessCluster.start(PipelineApp.class, config, GROUPS, List.of(), "100000000", "-1", "50")) {
            awaitFirstItem(cluster);
            long pid = cluster.process("B").pid();
            signal("STOP", pid);
            try {
                assertThat(cluster.process("A").waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(cluster.process("C").waitFor(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                signal("CONT", pid);
            }
            Map<String, Integer> codes = cluster.awaitExit(30);

            assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code != 0);
            for (String g : GROUPS) {
                assertThat(cluster.output(g)).as(cluster.allOutput()).contains("DFF_FAILED: B\n");
            }
            assertThat(cluster.output("B"))
                    .as(cluster.allOutput())
                    .doesNotContain("DFF_FAILED: A", "DFF_FAILED: C")
                    .containsAnyOf("stood still", "node group B failed in abort");
        }
    }

    @Test
    void shouldNameAMissingSinkInTheGroupsThatWaitedForIt() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "\"connectTimeoutMs\": 4000");
        try (ProcessCluster cluster =
                ProcessCluster.start(PipelineApp.class, config, List.of("A", "B"), List.of(), "1000")) {
            Map<String, Integer> codes = cluster.awaitExit(30);

            assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code != 0);
            for (String g : List.of("A", "B")) {
                assertThat(cluster.output(g))
                        .as(cluster.allOutput())
                        .contains("DFF_FAILED: C\n")
                        .doesNotContain("DFF_FAILED: A", "DFF_FAILED: B");
            }
        }
    }

    @Test
    void shouldFailTheOthersNamingAGroupKilledAfterItsOwnPartEnded() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "");
        // B works 20 ms per item: the source's part ends long before the sink's
        try (ProcessCluster cluster =
                ProcessCluster.start(PipelineApp.class, config, GROUPS, List.of(), "2000", "-1", "20000")) {
            awaitLine(cluster, "A", "group A's part ended");
            cluster.process("A").destroyForcibly(); // kill -9

            Map<String, Integer> codes = cluster.awaitExit(30);

            assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code != 0);
            for (String g : List.of("B", "C")) {
                assertThat(cluster.output(g))
                        .as(cluster.allOutput())
                        .contains("DFF_FAILED: A\n")
                        .contains("before the application ended");
            }
        }
    }

    private static void awaitFirstItem(ProcessCluster cluster) throws InterruptedException {
        awaitLine(cluster, "C", "first item arrived");
    }

    private static void awaitLine(ProcessCluster cluster, String group, String line) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!cluster.output(group).contains(line)) {
            assertThat(System.nanoTime() - deadline)
                    .as("group " + group + " never printed \"" + line + "\": " + cluster.allOutput())
                    .isNegative();
            Thread.sleep(50); // poll the log file: the process says nothing else
        }
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
}
