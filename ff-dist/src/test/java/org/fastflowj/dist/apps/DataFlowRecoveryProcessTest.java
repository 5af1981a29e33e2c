package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each group a real JVM: a MacroDataFlow product whose worker groups keep the blocks they use and get the
 * tasks that update the blocks they wrote loses one of them mid-run (kill -9), and C is still bit for bit
 * the sequential product: the lost group's tasks go to the workers left, encoded afresh for their links
 * (what the lost group kept is never referred to again), and a block it had written but not sent back
 * is computed again from the version the scheduler's group kept.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DataFlowRecoveryProcessTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"W1", "W2"})
    void shouldGiveTheSequentialProductWhenAWorkerGroupIsKilledMidRun(String victim) throws Exception {
        Path config = ProcessCluster.config(dir, DataFlowRecoveryApp.GROUPS, "\"batchSize\": 4");
        try (ProcessCluster cluster = ProcessCluster.start(
                DataFlowRecoveryApp.class, config, DataFlowRecoveryApp.GROUPS, List.of(), "8", "3000")) {
            RecoveryProcessTest.awaitLine(cluster, "S", "progress");
            cluster.process(victim).destroyForcibly(); // kill -9

            Map<String, Integer> codes = cluster.awaitExit(120);

            String logs = cluster.allOutput();
            for (String g : DataFlowRecoveryApp.GROUPS) {
                if (!g.equals(victim)) {
                    assertThat(codes.get(g)).as(g + "\n" + logs).isZero();
                }
            }
            assertThat(cluster.output("S"))
                    .as(logs)
                    .contains("result: product=equal\n")
                    .contains("DFF_LOST: " + victim + "\n")
                    .containsPattern("group " + victim
                            + " lost: [0-9]+ unanswered item") // a few, or none: on demand, a worker holds little
                    .doesNotContain("DFF_FAILED");
        }
    }
}
