package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each group a real JVM: a recoverable farm whose workers 1, 2 and 3 run in groups W1, W2 and W3 loses one
 * of them mid-run (kill -9) and still gives the one-process result, every task answered once; the groups
 * left exit 0, and group M names the lost group. A farm that is not recoverable fails fast as before.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RecoveryProcessTest {
    private static final int ITEMS = 1500;
    private static final String WORK_MICROS = "2000";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"W1", "W2", "W3"})
    void shouldFinishAMasterWorkerFarmWithTheOneProcessResultWhenAWorkerGroupIsKilled(String victim) throws Exception {
        assertRecoversFromKilling(victim, "master-worker");
    }

    @Test
    void shouldFinishAnOnDemandMasterWorkerFarmWithTheOneProcessResultWhenAWorkerGroupIsKilled() throws Exception {
        assertRecoversFromKilling("W3", "master-worker-on-demand");
    }

    @Test
    void shouldFinishAWordCountWithTheOneProcessResultWhenAWorkerGroupIsKilled() throws Exception {
        assertRecoversFromKilling("W2", "word-count");
    }

    @Test
    void shouldGiveTheOneProcessResultWithNoGroupLost() throws Exception {
        String expected = RecoverableFarmApp.run("master-worker", ITEMS, 0, true);
        Path config = ProcessCluster.config(dir, RecoverableFarmApp.GROUPS, "\"batchSize\": 4");
        try (ProcessCluster cluster = start(config, "master-worker")) {
            awaitLine(cluster, "M", "progress");
            long progressNs = System.nanoTime();

            Map<String, Integer> codes = cluster.awaitExit(120);

            System.out.printf(
                    "recovery baseline: the run ended %d ms after the progress line, no group lost%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - progressNs));
            assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code == 0);
            assertThat(cluster.output("M"))
                    .as(cluster.allOutput())
                    .contains("RESULT: " + expected + "\n")
                    .contains("DFF_LOSABLE: W1,W2,W3\n")
                    .doesNotContain("DFF_LOST");
        }
    }

    @Test
    void shouldGoOnWithoutAWorkerGroupFrozenPastTheHeartbeat() throws Exception {
        String expected = RecoverableFarmApp.run("master-worker", ITEMS, 0, true);
        Path config = ProcessCluster.config(
                dir,
                RecoverableFarmApp.GROUPS,
                "\"batchSize\": 4, \"heartbeatIntervalMs\": 300, \"heartbeatTimeoutMs\": 2000");
        try (ProcessCluster cluster = start(config, "master-worker")) {
            awaitLine(cluster, "M", "progress");
            long pid = cluster.process("W2").pid();
            long stoppedNs = System.nanoTime();
            signal("STOP", pid);
            try {
                awaitLine(cluster, "M", "DFF_LOST: W2");
                long detectedNs = System.nanoTime();
                for (String g : List.of("M", "W1", "W3")) {
                    assertThat(cluster.process(g).waitFor(90, TimeUnit.SECONDS))
                            .as(cluster.allOutput())
                            .isTrue();
                }
                System.out.printf(
                        "recovery from a frozen group (heartbeatTimeoutMs 2000): lost after %d ms, run ended %d ms"
                                + " after the freeze%n",
                        TimeUnit.NANOSECONDS.toMillis(detectedNs - stoppedNs),
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedNs));
            } finally {
                signal("CONT", pid);
            }
            Map<String, Integer> codes = cluster.awaitExit(60);

            String logs = cluster.allOutput();
            assertThat(codes.get("M")).as(logs).isZero();
            assertThat(codes.get("W1")).as(logs).isZero();
            assertThat(codes.get("W3")).as(logs).isZero();
            assertThat(codes.get("W2"))
                    .as("the frozen group learns it was left behind\n" + logs)
                    .isNotZero();
            assertThat(cluster.output("M")).as(logs).contains("RESULT: " + expected + "\n");
        }
    }

    private static ProcessCluster start(Path config, String shape) throws java.io.IOException {
        return ProcessCluster.start(
                RecoverableFarmApp.class,
                config,
                RecoverableFarmApp.GROUPS,
                List.of(),
                shape,
                Integer.toString(ITEMS),
                WORK_MICROS,
                "true");
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    private void assertRecoversFromKilling(String victim, String shape) throws Exception {
        String expected = RecoverableFarmApp.run(shape, ITEMS, 0, true);
        Path config = ProcessCluster.config(dir, RecoverableFarmApp.GROUPS, "\"batchSize\": 4");
        try (ProcessCluster cluster = ProcessCluster.start(
                RecoverableFarmApp.class,
                config,
                RecoverableFarmApp.GROUPS,
                List.of(),
                shape,
                Integer.toString(ITEMS),
                WORK_MICROS,
                "true")) {
            awaitLine(cluster, "M", "progress");
            long killedNs = System.nanoTime();
            cluster.process(victim).destroyForcibly(); // kill -9
            awaitLine(cluster, "M", "DFF_LOST: " + victim);
            long detectedNs = System.nanoTime();

            Map<String, Integer> codes = cluster.awaitExit(120);
            System.out.printf(
                    "recovery from kill -9 of %s (%s): lost after %d ms, run ended %d ms after the kill%n",
                    victim,
                    shape,
                    TimeUnit.NANOSECONDS.toMillis(detectedNs - killedNs),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedNs));

            String logs = cluster.allOutput();
            for (String g : RecoverableFarmApp.GROUPS) {
                if (!g.equals(victim)) {
                    assertThat(codes.get(g)).as(g + "\n" + logs).isZero();
                }
            }
            assertThat(cluster.output("M"))
                    .as(logs)
                    .contains("RESULT: " + expected + "\n")
                    .contains("DFF_LOST: " + victim + "\n")
                    .contains("group M lost group " + victim)
                    .doesNotContain("DFF_FAILED")
                    // it was mid-run: the lost worker had items in hand, which others did again (an on-demand
                    // worker holds one or two at a time, and may have just answered its last)
                    .containsPattern("group " + victim + " lost: " + (shape.endsWith("on-demand") ? "[0-9]" : "[1-9]")
                            + "[0-9]* unanswered item");
        }
    }

    @Test
    void shouldFailFastWhenAWorkerGroupOfAFarmWithoutRecoveryIsKilled() throws Exception {
        Path config = ProcessCluster.config(dir, RecoverableFarmApp.GROUPS, "\"batchSize\": 4");
        try (ProcessCluster cluster = ProcessCluster.start(
                RecoverableFarmApp.class,
                config,
                RecoverableFarmApp.GROUPS,
                List.of(),
                "master-worker",
                Integer.toString(ITEMS),
                WORK_MICROS,
                "false")) {
            awaitLine(cluster, "M", "progress");
            cluster.process("W2").destroyForcibly();

            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code != 0);
            assertThat(cluster.output("M"))
                    .as(cluster.allOutput())
                    .contains("DFF_FAILED: W2\n")
                    .doesNotContain("DFF_LOST", "RESULT:");
        }
    }

    static void awaitLine(ProcessCluster cluster, String group, String line) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!cluster.output(group).contains(line)) {
            assertThat(System.nanoTime() - deadline)
                    .as("group " + group + " never printed \"" + line + "\": " + cluster.allOutput())
                    .isNegative();
            Thread.sleep(50); // polls the log file: the process says nothing else
        }
    }
}
