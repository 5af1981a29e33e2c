package org.fastflowj.bench.figures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fastflowj.bench.figures.ClusterScript.canMakeNamespaces;
import static org.fastflowj.bench.figures.ClusterScript.cluster;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The shaped-cluster rows at {@link Scale#SMOKE} sizes: {@code cluster.sh up 2} with a prefix of the test's
 * own, then the all-to-all and the master-worker with {@code --cluster}, whose groups ff-launcher starts in
 * the two namespaces ({@code "host": "netns:PREFIXi"}). Each must log its cluster points, its bytes and tasks
 * all accounted for, and keep the config it ran. Then the group-to-group figure's shaped cells, whose framing
 * bound must be measured for each. Then DF-Threads' matmul against its OpenMPI baseline on 4 hosts (also
 * needs OpenMPI). Needs root and iproute2; skipped otherwise, saying so. No speed is asserted.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class ClusterFiguresTest {
    @Test
    void shouldRunTheAllToAllAndTheMasterWorkerOnTheClusterThroughTheLauncher(@TempDir Path dir) throws Exception {
        assumeTrue(canMakeNamespaces(), "the shaped cluster needs root and iproute2 (ip, tc): skipped");
        String prefix = "ffjf" + ProcessHandle.current().pid() % 10_000;
        Path state = dir.resolve("cluster.state");
        try {
            String up = clusterOk(prefix, state, "up", "2");
            assertThat(up).contains("cluster up: 2 hosts");
            Figures figures = new Figures();
            Path scratch = dir.resolve("scratch");

            int exit = runAtSmokeScale(figures, "fig9-all-to-all,fig10-master-worker", prefix, dir);

            assertThat(figures.lastLog.notes()).noneMatch(note -> note.contains("failed"));
            assertThat(exit).isZero();
            assertThat(figures.lastLog.points("fig9-all-to-all-shaped"))
                    .extracting(ResultLog.Point::x)
                    .containsExactlyElementsOf(Scale.SMOKE.a2aSenders.stream()
                            .map(Integer::doubleValue)
                            .toList());
            assertThat(figures.lastLog.points("fig10-master-worker"))
                    .extracting(ResultLog.Point::series)
                    .anyMatch(series -> series.startsWith("speed-up, shaped cluster"));
            assertThat(figures.lastLog.points("fig10-master-worker-split"))
                    .extracting(ResultLog.Point::series)
                    .anyMatch(series -> series.endsWith("(shaped cluster)"));
            assertThat(figures.lastLog.notes()).noneMatch(note -> note.contains("shaped-link rows skipped"));
            assertThat(Files.readString(scratch.resolve("fig10-master-worker.json"), StandardCharsets.UTF_8))
                    .contains("\"host\": \"netns:" + prefix + "1\"", "\"host\": \"netns:" + prefix + "2\"");
            assertThat(Files.readString(scratch.resolve("fig9-all-to-all-shaped-launcher.log"), StandardCharsets.UTF_8))
                    .contains("(netns " + prefix + "1, pid", "(netns " + prefix + "2, pid")
                    .contains("ff-launcher: all groups connected");
            assertThat(dir.resolve("out").resolve("fig9-all-to-all-shaped.png")).exists();
        } finally {
            clusterOk(prefix, state, "down");
        }
        assertThat(state).doesNotExist();
    }

    @Test
    void shouldMeasureTheShapedGroupToGroupCellsWithTheirFramingBound(@TempDir Path dir) throws Exception {
        assumeTrue(canMakeNamespaces(), "the shaped cluster needs root and iproute2 (ip, tc): skipped");
        String prefix = "ffjg" + ProcessHandle.current().pid() % 10_000;
        Path state = dir.resolve("cluster.state");
        try {
            clusterOk(prefix, state, "up", "2");
            Figures figures = new Figures();

            int exit = runAtSmokeScale(figures, "fig9-group-to-group", prefix, dir);

            assertThat(exit).isZero();
            // One bound per shaped cell (SMOKE: 1 KiB at batch 1 and 32), each near 1: both senders put their
            // payload and a few bytes of framing and headers per message on the link. A counter read from the
            // wrong port, or not at all, gives no point or one far from 1.
            assertThat(figures.lastLog.points("fig9-group-to-group-shaped-ratio"))
                    .filteredOn(point -> point.series().startsWith("framing bound"))
                    .hasSize(Scale.SMOKE.batchSizes.size())
                    .allSatisfy(point -> assertThat(point.value()).isBetween(0.9, 1.05));
            // Each variant's time from the sender's start to the first message read, in ms: a stamp from the
            // wrong clock, or missing, gives no point, a negative one or one of hours.
            assertThat(figures.lastLog.points("fig9-group-to-group-shaped-first-message"))
                    .hasSize(2 * Scale.SMOKE.batchSizes.size())
                    .allSatisfy(point -> assertThat(point.value()).isStrictlyBetween(0.0, 60_000.0));
        } finally {
            clusterOk(prefix, state, "down");
        }
        assertThat(state).doesNotExist();
    }

    @Test
    void shouldRunMatmulAndItsMpiBaselineOnFourHostsWithEqualDigests(@TempDir Path dir) throws Exception {
        assumeTrue(canMakeNamespaces(), "the shaped cluster needs root and iproute2 (ip, tc): skipped");
        assumeTrue(
                MpiFigures.missingTools(System.getenv("PATH")).isEmpty(),
                "OpenMPI (mpicc, mpirun) is not installed: skipped");
        String prefix = "ffjm" + ProcessHandle.current().pid() % 10_000;
        Path state = dir.resolve("cluster.state");
        try {
            clusterOk(prefix, state, "up", "4");
            Figures figures = new Figures();

            int exit = runAtSmokeScale(figures, MpiFigures.NAME, prefix, dir);

            assertThat(figures.lastLog.notes()).noneMatch(note -> note.contains("failed") || note.contains("skipped"));
            assertThat(exit).isZero();
            // One ratio per host count, each from a run of both programs whose digests were equal.
            assertThat(figures.lastLog.points(MpiFigures.NAME))
                    .extracting(ResultLog.Point::x)
                    .containsExactly(1.0, 2.0, 4.0);
            assertThat(figures.lastLog.notes()).anyMatch(note -> note.contains("FastFlow-J's and MPI's"));
            // Past one host, MPI's ranks exchange A, B and C over host 1's link.
            assertThat(figures.lastLog.points(MpiFigures.NAME + "-bytes"))
                    .filteredOn(point -> point.series().startsWith("MPI") && point.x() > 1)
                    .hasSize(2)
                    .allSatisfy(point -> assertThat(point.value()).isPositive());
            assertThat(dir.resolve("out").resolve(MpiFigures.NAME + ".png")).exists();
        } finally {
            clusterOk(prefix, state, "down");
        }
        assertThat(state).doesNotExist();
    }

    /** Runs {@code only} at SMOKE scale with the cluster {@code prefix} up: plots in DIR/out, configs in DIR/scratch. */
    private static int runAtSmokeScale(Figures figures, String only, String prefix, Path dir) {
        return new CommandLine(figures)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .execute(
                        "--scale",
                        "smoke",
                        "--only",
                        only,
                        "--cluster",
                        prefix,
                        "--out",
                        dir.resolve("out").toString(),
                        "--scratch",
                        dir.resolve("scratch").toString());
    }

    private static String clusterOk(String prefix, Path state, String... args) throws Exception {
        ClusterScript.Result result = cluster(prefix, state, args);
        assertThat(result.exit()).as(result.output()).isZero();
        return result.output();
    }
}
