package org.fastflowj.examples.masterworker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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

/**
 * On demand across groups follows the workers' speeds as in one process: workers of 2, 2 and 6 ms per task,
 * one per group, the master in G0 with the first. The workers sleep their grain: burning it, three workers on
 * a machine of two cores would run at the speeds the OS scheduler gives their processes, not their own. Across groups each worker's share is within 10 %
 * of the tasks of its share in one process, and the fast remote worker computes more than the slow one, as a
 * farm (the emitter's staging hand-out) and as an all-to-all (the master choosing among its outputs).
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class MasterWorkerSpeedsTest {
    private static final int TASKS = 600;
    private static final Pattern PER_GROUP = Pattern.compile("^(?:\\[G0] )?G(\\d): (\\d+) tasks", Pattern.MULTILINE);

    @TempDir
    Path dir;

    private static long[] perGroup(String out) {
        long[] counts = new long[3];
        Matcher m = PER_GROUP.matcher(out);
        while (m.find()) {
            counts[Integer.parseInt(m.group(1))] = Long.parseLong(m.group(2));
        }
        assertThat(Arrays.stream(counts).sum()).as(out).isEqualTo(TASKS);
        return counts;
    }

    private static List<String> args(boolean farm) {
        List<String> args = new ArrayList<>(List.of(
                "masterworker",
                "--tasks",
                Integer.toString(TASKS),
                "--grain-ms",
                "2,2,6",
                "--workers",
                "1",
                "--sleep"));
        if (farm) {
            args.add("--farm");
        }
        return args;
    }

    private void shouldSplitBySpeedAsInOneProcess(boolean farm) throws Exception {
        List<String> oneProcess = new ArrayList<>(args(farm));
        oneProcess.addAll(List.of("--groups", "3"));
        AppRunner run = AppRunner.run(oneProcess.toArray(String[]::new));
        assertThat(run.exitCode).as(run.toString()).isZero();
        long[] one = perGroup(run.out);

        Path config = GroupCluster.configFor("masterworker-farm", dir); // G0, G1, G2
        try (GroupCluster cluster =
                GroupCluster.start(config, List.of("G0", "G1", "G2"), args(farm).toArray(String[]::new))) {
            Map<String, Integer> codes = cluster.awaitExit(120);
            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            long[] groups = perGroup(cluster.output("G0"));

            String split = (farm ? "farm" : "all-to-all") + ", workers of 2/2/6 ms: one process " + Arrays.toString(one)
                    + ", three groups " + Arrays.toString(groups);
            System.out.println("on-demand split by speed: " + split);
            assertThat(groups[1])
                    .as("the fast remote worker against the slow one: " + split)
                    .isGreaterThan(groups[2]);
            for (int i = 0; i < 3; i++) {
                assertThat(groups[i]).as("worker %d: %s", i, split).isBetween(one[i] - TASKS / 10, one[i] + TASKS / 10);
            }
        }
    }

    @Test
    void shouldSplitAFarmsTasksBySpeedAcrossGroupsAsInOneProcess() throws Exception {
        shouldSplitBySpeedAsInOneProcess(true);
    }

    @Test
    void shouldSplitAnAllToAllsTasksBySpeedAcrossGroupsAsInOneProcess() throws Exception {
        shouldSplitBySpeedAsInOneProcess(false);
    }
}
