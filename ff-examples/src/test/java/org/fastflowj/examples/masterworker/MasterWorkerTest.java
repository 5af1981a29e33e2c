package org.fastflowj.examples.masterworker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.examples.AppRunner;
import org.fastflowj.examples.GroupCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class MasterWorkerTest {
    private static final Pattern PER_GROUP = Pattern.compile("^G(\\d): (\\d+) tasks", Pattern.MULTILINE);

    @TempDir
    Path dir;

    private static long sumPerGroup(String out) {
        long sum = 0;
        Matcher m = PER_GROUP.matcher(out);
        while (m.find()) {
            sum += Long.parseLong(m.group(2));
        }
        return sum;
    }

    @Test
    void shouldComputeEveryTaskOnceAndReportTheIdealTime() {
        AppRunner run = AppRunner.run("masterworker", "--tasks", "1000", "--grain-ms", "0.1", "--groups", "3");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("G0: ", "G1: ", "G2: ").contains("total: 1000 tasks");
        assertThat(sumPerGroup(run.out)).isEqualTo(1000);
        int cores = Runtime.getRuntime().availableProcessors();
        double ideal = 1000 * 0.1e-3 / 6 * Math.max(1.0, 6.0 / cores); // spinning workers share the cores
        assertThat(run.out)
                .contains(String.format("ideal %.3f s (6 workers in 3 groups, grain 0.10 ms, %d cores)", ideal, cores));
    }

    @Test
    void shouldReportTheIdealTimeOfSleepingWorkersWhateverTheCores() {
        AppRunner run =
                AppRunner.run("masterworker", "--tasks", "300", "--grain-ms", "0.1,0.2", "--groups", "2", "--sleep");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(sumPerGroup(run.out)).isEqualTo(300);
        // four workers of 0.1, 0.2, 0.1, 0.2 ms: 30 000 tasks per second together
        assertThat(run.out).contains("ideal 0.010 s (4 workers in 2 groups, grain 0.10,0.20 ms, sleeping)");
    }

    @Test
    void shouldRejectAGrainOutsideThePapersRange() {
        AppRunner run = AppRunner.run("masterworker", "--grain-ms", "2,25");

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--grain-ms: expected 0.1 to 20.0, got 25.0");
    }

    @Test
    void shouldShareTheTasksBetweenTwoGroupProcesses() throws Exception {
        Path config = GroupCluster.configFor("masterworker", dir);
        try (GroupCluster cluster = GroupCluster.start(
                config, List.of("G0", "G1"), "masterworker", "--tasks", "1000", "--grain-ms", "0.5")) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            String master = cluster.output("G0");
            assertThat(master).contains("total: 1000 tasks").contains("time: ");
            assertThat(sumPerGroup(master)).isEqualTo(1000);
            assertThat(master).as("remote workers got tasks").containsPattern("G1: [1-9]\\d* tasks");
            assertThat(cluster.output("G1")).isEmpty();
        }
    }

    @Test
    void shouldComputeEveryTaskOnceAsAFarmInOneProcess() {
        AppRunner run = AppRunner.run("masterworker", "--farm", "--tasks", "500", "--grain-ms", "0.1", "--groups", "3");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("total: 500 tasks");
        assertThat(sumPerGroup(run.out)).isEqualTo(500);
    }

    /** The farm form: the master and 2 workers in G0, 2 workers each in G1 and G2, one process per group. */
    @Test
    void shouldShareAFarmsTasksWithWorkersInTwoOtherGroupProcesses() throws Exception {
        Path config = GroupCluster.configFor("masterworker-farm", dir);
        try (GroupCluster cluster = GroupCluster.start(
                config,
                List.of("G0", "G1", "G2"),
                "masterworker",
                "--farm",
                "--groups",
                "3",
                "--tasks",
                "600",
                "--grain-ms",
                "1")) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            String master = cluster.output("G0");
            assertThat(master).contains("total: 600 tasks");
            assertThat(sumPerGroup(master)).isEqualTo(600);
            assertThat(master)
                    .as("remote workers got tasks")
                    .containsPattern("G1: [1-9]\\d* tasks")
                    .containsPattern("G2: [1-9]\\d* tasks");
            assertThat(cluster.output("G1")).isEmpty();
        }
    }
}
