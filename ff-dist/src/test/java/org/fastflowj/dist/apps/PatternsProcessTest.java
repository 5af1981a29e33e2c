package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ParallelFor and MacroDataFlow with workers in three JVMs ({@link PatternsApp}): every result equals the
 * sequential one, and work ran in every group.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PatternsProcessTest {
    @TempDir
    Path dir;

    @Test
    void shouldRunLoopsReductionsAndDataFlowTasksOnWorkersInThreeProcesses() throws Exception {
        Path config = ProcessCluster.config(dir, PatternsApp.GROUPS, "");
        try (ProcessCluster cluster = ProcessCluster.start(PatternsApp.class, config, PatternsApp.GROUPS, List.of())) {
            Map<String, Integer> codes = cluster.awaitExit(100);
            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            String out = cluster.output("S");
            long sum = LongStream.range(0, PatternsApp.N).map(i -> i * i).sum();
            assertThat(out)
                    .contains("result: filled=true forGroups=[S, W1, W2]")
                    .contains("result: sum=" + sum)
                    .contains("result: product=equal taskGroups=[S, W1, W2]");
            assertThat(cluster.output("W1")).doesNotContain("result:");
        }
    }
}
