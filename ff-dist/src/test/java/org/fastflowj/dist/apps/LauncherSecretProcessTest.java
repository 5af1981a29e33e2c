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
 * The launcher's per-run secret reaches each group as the environment variable DFF_Secret, in real
 * JVMs: groups that share it run; a group with another one (a process of another run, or a stranger
 * who guessed the rest) is refused, and every group exits non-zero.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LauncherSecretProcessTest {
    private static final List<String> GROUPS = List.of("A", "B", "C");

    @TempDir
    Path dir;

    @Test
    void shouldRunGroupsThatShareTheLaunchersSecret() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "\"batchSize\": 16");
        Map<String, String> secret = Map.of("DFF_Secret", "fresh secret of this run");
        try (ProcessCluster cluster = ProcessCluster.start(
                PipelineApp.class, config, GROUPS, Map.of("A", secret, "B", secret, "C", secret), List.of(), "10000")) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes)
                    .as(cluster.allOutput())
                    .containsOnly(Map.entry("A", 0), Map.entry("B", 0), Map.entry("C", 0));
            long sumOfSquares = LongStream.range(0, 10_000).map(x -> x * x).sum();
            assertThat(cluster.output("C")).contains("sum=" + sumOfSquares + " count=10000");
        }
    }

    @Test
    void shouldRefuseAGroupWithAnotherRunsSecret() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "\"connectTimeoutMs\": 3000");
        Map<String, String> ours = Map.of("DFF_Secret", "this run");
        Map<String, String> theirs = Map.of("DFF_Secret", "another run");
        try (ProcessCluster cluster = ProcessCluster.start(
                PipelineApp.class, config, GROUPS, Map.of("A", theirs, "B", ours, "C", ours), List.of(), "1000")) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code != 0);
            assertThat(cluster.output("A"))
                    .contains("group B at 127.0.0.1:")
                    .contains("refused the connection")
                    .contains("the accepting group logs why");
            assertThat(cluster.output("B")).contains("authentication failed: wrong or missing secret");
        }
    }
}
