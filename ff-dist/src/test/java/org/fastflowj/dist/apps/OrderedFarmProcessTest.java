package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An ordered farm with workers of three speeds in three JVMs ({@link OrderedFarmApp}): the sink gets the
 * outputs in the input's order, round-robin and on demand.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OrderedFarmProcessTest {
    private static final Pattern RESULT = Pattern.compile("result: (\\[.*])");
    private static final long ITEMS = 400;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"roundRobin", "onDemand"})
    void shouldKeepTheInputOrderWithWorkersInThreeProcesses(String policy) throws Exception {
        Path config = ProcessCluster.config(dir, OrderedFarmApp.GROUPS, "\"batchSize\": 8");
        try (ProcessCluster cluster = ProcessCluster.start(
                OrderedFarmApp.class, config, OrderedFarmApp.GROUPS, List.of(), policy, Long.toString(ITEMS))) {
            Map<String, Integer> codes = cluster.awaitExit(100);
            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            Matcher m = RESULT.matcher(cluster.output("M"));
            assertThat(m.find()).as(cluster.output("M")).isTrue();
            assertThat(m.group(1)).isEqualTo(OrderedFarmApp.expected(ITEMS).toString());
        }
    }
}
