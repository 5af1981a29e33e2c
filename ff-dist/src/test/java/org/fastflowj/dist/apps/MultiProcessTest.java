package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each group a real JVM on loopback: a normal run, and every way a run can go wrong ends with every
 * process exiting non-zero, promptly, naming the group where it started.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MultiProcessTest {
    private static final List<String> GROUPS = List.of("A", "B", "C");

    @TempDir
    Path dir;

    private static long sumOfSquares(long n) {
        return LongStream.range(0, n).map(x -> x * x).sum();
    }

    @Test
    void shouldRunAPipelineInThreeProcesses() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "\"batchSize\": 16");
        try (ProcessCluster cluster = ProcessCluster.start(PipelineApp.class, config, GROUPS, List.of(), "100000")) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes)
                    .as(cluster.allOutput())
                    .containsOnly(Map.entry("A", 0), Map.entry("B", 0), Map.entry("C", 0));
            assertThat(cluster.output("C")).contains("sum=" + sumOfSquares(100_000) + " count=100000");
        }
    }

    @Test
    void shouldRunAProgramWithNamedBlocksInTheGroupsItsConfigLists() throws Exception {
        Path config = dir.resolve("app.json");
        Files.writeString(
                config,
                String.format(
                        """
                        {"groups": [
                          {"name": "A", "endpoint": "127.0.0.1:%d", "blocks": ["source", "squares"]},
                          {"name": "B", "endpoint": "127.0.0.1:%d", "blocks": ["squares.workers[2-3]"]},
                          {"name": "C", "endpoint": "127.0.0.1:%d", "blocks": ["sink"]}
                        ]}
                        """,
                        ProcessCluster.freePort(), ProcessCluster.freePort(), ProcessCluster.freePort()));
        String oneProcess = NamedBlocksApp.run(20_000);

        try (ProcessCluster cluster = ProcessCluster.start(NamedBlocksApp.class, config, GROUPS, List.of(), "20000")) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes)
                    .as(cluster.allOutput())
                    .containsOnly(Map.entry("A", 0), Map.entry("B", 0), Map.entry("C", 0));
            assertThat(oneProcess).isEqualTo("sum=" + sumOfSquares(20_000) + " count=20000");
            assertThat(cluster.output("C")).contains(oneProcess);
            assertThat(cluster.output("A") + cluster.output("B")).doesNotContain("sum=");
        }
    }

    @Test
    void shouldFailEveryGroupNamingTheOriginWhenANodeThrows() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "");
        try (ProcessCluster cluster =
                ProcessCluster.start(PipelineApp.class, config, GROUPS, List.of(), "100000", "5000")) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code != 0);
            for (String g : List.of("A", "C")) {
                assertThat(cluster.output(g)).as(g).contains("group B failed").contains("square refuses 5000");
            }
            assertThat(cluster.output("B")).contains("square refuses 5000");
        }
    }

    @Test
    void shouldFailTheOthersPromptlyWhenAGroupIsKilled() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "");
        try (ProcessCluster cluster =
                ProcessCluster.start(PipelineApp.class, config, GROUPS, List.of(), "100000000", "-1", "50")) {
            waitForTraffic(cluster);
            long killedAt = System.nanoTime();
            cluster.process("B").destroyForcibly(); // kill -9

            Map<String, Integer> codes = Map.of("A", waitFor(cluster.process("A")), "C", waitFor(cluster.process("C")));
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - killedAt);

            assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code != 0);
            assertThat(seconds).isLessThan(15);
            assertThat(cluster.output("A")).contains("group B");
            assertThat(cluster.output("C")).contains("group B");
        }
    }

    @Test
    void shouldDetectAFrozenGroupByItsSilence() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "\"heartbeatIntervalMs\": 300, \"heartbeatTimeoutMs\": 2000");
        try (ProcessCluster cluster =
                ProcessCluster.start(PipelineApp.class, config, GROUPS, List.of(), "100000000", "-1", "50")) {
            waitForTraffic(cluster);
            long pid = cluster.process("B").pid();
            new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor();
            try {
                long frozenAt = System.nanoTime();
                Map<String, Integer> codes =
                        Map.of("A", waitFor(cluster.process("A")), "C", waitFor(cluster.process("C")));
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - frozenAt);

                assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code != 0);
                assertThat(seconds).isLessThan(12);
                assertThat(cluster.output("A") + cluster.output("C")).contains("heartbeat");
            } finally {
                new ProcessBuilder("kill", "-CONT", Long.toString(pid)).start().waitFor();
            }
        }
    }

    @Test
    void shouldFailNamingAPeerThatNeverComesUp() throws Exception {
        Path config = ProcessCluster.config(dir, GROUPS, "\"connectTimeoutMs\": 1500");
        try (ProcessCluster cluster =
                ProcessCluster.start(PipelineApp.class, config, List.of("A", "C"), List.of(), "1000")) {
            Map<String, Integer> codes = cluster.awaitExit(30);

            assertThat(codes.values()).as(cluster.allOutput()).allMatch(code -> code != 0);
            assertThat(cluster.output("A")).contains("group B").contains("did not come up");
            assertThat(cluster.output("C")).contains("group B").contains("did not connect");
        }
    }

    @Test
    void shouldRefuseABadConfigNamingFileLineAndColumn() throws Exception {
        Path config = dir.resolve("bad.json");
        Files.writeString(config, "{\n  \"groups\": [\n    {\"name\": \"A\", \"endpoint\": \"127.0.0.1\"}\n  ]\n}\n");
        try (ProcessCluster cluster = ProcessCluster.start(PipelineApp.class, config, List.of("A"), List.of(), "10")) {
            Map<String, Integer> codes = cluster.awaitExit(30);

            assertThat(codes.get("A")).isNotZero();
            assertThat(cluster.output("A")).contains("bad.json:3:").contains("groups[0].endpoint");
        }
    }

    @Test
    void shouldKeepASleepingReceiversHeapBoundedWhileTenMillionItemsArrive() throws Exception {
        Path config = ProcessCluster.config(dir, List.of("A", "B"), "\"batchSize\": 64, \"messageOTF\": 8");
        long items = 10_000_000;
        try (ProcessCluster cluster = ProcessCluster.start(
                FlowControlApp.class, config, List.of("A", "B"), List.of("-Xmx32m"), Long.toString(items), "2000")) {
            Map<String, Integer> codes = cluster.awaitExit(100);

            assertThat(codes).as(cluster.allOutput()).containsOnly(Map.entry("A", 0), Map.entry("B", 0));
            String out = cluster.output("B");
            assertThat(out).contains("count=" + items + " sum=" + (items * (items - 1) / 2));
            long peakMb = Long.parseLong(out.replaceAll("(?s).*peakHeapMB=(\\d+).*", "$1"));
            // 10 M boxed items would need ~200 MB: the credits keep the receiver's heap to a few batches
            assertThat(peakMb).isLessThan(32);
        }
    }

    /** Waits until group C took its first item, so every group is up and connected. */
    private static void waitForTraffic(ProcessCluster cluster) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!cluster.output("C").contains("first item arrived")) {
            for (String g : GROUPS) {
                assertThat(cluster.process(g).isAlive())
                        .as(g + " alive: " + cluster.allOutput())
                        .isTrue();
            }
            assertThat(System.nanoTime() - deadline)
                    .as("no item reached C: " + cluster.allOutput())
                    .isNegative();
            Thread.sleep(50);
        }
    }

    private static int waitFor(Process p) throws InterruptedException {
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("still running 30 s later");
        }
        return p.exitValue();
    }
}
