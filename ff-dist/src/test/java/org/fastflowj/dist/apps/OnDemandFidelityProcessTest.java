package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.dist.DFF;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * On demand across groups favours the faster consumer as in one process: FastFlow's test_a2aOnDemand2 shape
 * (2 sources x 20 tasks, sinks of 20, 40 and 60 ms in another JVM) splits the tasks within 2 of the split the
 * same program makes in one process.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class OnDemandFidelityProcessTest {
    private static final Pattern SINKS = Pattern.compile("result: sinks=\\[(\\d+), (\\d+), (\\d+)]");

    @TempDir
    Path dir;

    @AfterEach
    void reset() {
        DFF.reset();
    }

    private static long[] counts(String output) {
        Matcher m = SINKS.matcher(output);
        assertThat(m.find()).as(output).isTrue();
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3))};
    }

    @Test
    void shouldSplitCoarseTasksAcrossGroupsAsInOneProcess() throws Exception {
        StringBuilder result = new StringBuilder();
        ScenarioApp.build("onDemandSinks", result).runAndWaitEnd();
        long[] one = counts("result: " + result);
        List<String> groups = ScenarioApp.GROUPS.get("onDemandSinks");
        Path config = ProcessCluster.config(dir, groups, "");

        try (ProcessCluster cluster =
                ProcessCluster.start(ScenarioApp.class, config, groups, List.of(), "onDemandSinks")) {
            Map<String, Integer> codes = cluster.awaitExit(75);
            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            long[] two = counts(cluster.output("SINKS"));

            String split = "one process " + Arrays.toString(one) + ", two groups " + Arrays.toString(two);
            System.out.println("on-demand split (20/40/60 ms sinks): " + split);
            assertThat(Arrays.stream(one).sum()).isEqualTo(40);
            assertThat(Arrays.stream(two).sum()).isEqualTo(40);
            assertThat(one[0]).as(split).isGreaterThan(one[2]);
            for (int i = 0; i < 3; i++) {
                assertThat(two[i]).as("sink %d: %s", i, split).isBetween(one[i] - 2, one[i] + 2);
            }
        }
    }
}
