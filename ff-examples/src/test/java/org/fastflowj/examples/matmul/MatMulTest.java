package org.fastflowj.examples.matmul;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.examples.AppRunner;
import org.fastflowj.examples.GroupCluster;
import org.fastflowj.patterns.MacroDataFlow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MatMulTest {
    @TempDir
    Path dir;

    /**
     * The examples' command line in this JVM with the serialization check on ({@link AppRunner}): a macro
     * data-flow's tasks are code, so this also shows the pattern's own farm stays out of that check.
     */
    static AppRunner run(String... args) {
        return AppRunner.run(args);
    }

    @ParameterizedTest
    @CsvSource({"216, 8", "96, 32", "40, 5"})
    void shouldEqualTheSequentialBlockedProductBitForBit(int n, int block) {
        BlockedMatrix a = BlockedMatrix.random(n, block, 7), b = BlockedMatrix.random(n, block, 8);
        BlockedMatrix parallel = BlockedMatrix.zeros(n, block), sequential = BlockedMatrix.zeros(n, block);

        try (MacroDataFlow mdf = new MacroDataFlow(2, 64)) {
            parallel.addProduct(mdf, a, b);
        }
        sequential.addProductSequential(a, b);

        assertThat(parallel.bitEqual(sequential)).isTrue();
        assertThat(parallel.checksum()).isEqualTo(sequential.checksum()).isNotZero();
    }

    @Test
    void shouldPrintTheSequentialChecksumAndCheckItBitForBit() {
        AppRunner run = run("matmul", "--n", "216", "--block", "8", "--workers", "2", "--seed", "3", "--check");

        BlockedMatrix expected = BlockedMatrix.zeros(216, 8);
        expected.addProductSequential(BlockedMatrix.random(216, 8, 3), BlockedMatrix.random(216, 8, 4));
        assertThat(run.exitCode).as(run.err).isZero();
        assertThat(run.out)
                .containsPattern("time: [0-9.]+ s for n=216 block 8 \\(19683 tasks, 2 workers\\)")
                .contains("checksum: " + expected.checksum() + "\n")
                .contains("check: equal, bit for bit, to the sequential blocked product");
    }

    /** The digest is the FNV-1a hash of the product's bits (what the MPI baseline is compared by); --cpu adds a line. */
    @Test
    void shouldPrintTheProductsDigestAndWithCpuItsCpuTime() {
        AppRunner run = run("matmul", "--n", "48", "--block", "8", "--workers", "2", "--seed", "5", "--cpu");

        BlockedMatrix expected = BlockedMatrix.zeros(48, 8);
        expected.addProductSequential(BlockedMatrix.random(48, 8, 5), BlockedMatrix.random(48, 8, 6));
        assertThat(run.exitCode).as(run.err).isZero();
        assertThat(run.out)
                .contains(String.format("digest: %016x%n", expected.digest()))
                .containsPattern("cpu: [0-9]+\\.[0-9]{3} s in this process");
        BlockedMatrix changed = BlockedMatrix.zeros(48, 8);
        changed.addProductSequential(BlockedMatrix.random(48, 8, 5), BlockedMatrix.random(48, 8, 7));
        assertThat(changed.digest()).isNotEqualTo(expected.digest());
        assertThat(run("matmul", "--n", "48", "--block", "8", "--workers", "2").out)
                .doesNotContain("cpu:");
    }

    /** Workers of four groups, all in this process (no group selected): the same product, tasks round-tripped. */
    @Test
    void shouldEqualTheSequentialProductWithWorkerGroupsInOneProcess() {
        AppRunner run = run("matmul", "--n", "64", "--block", "8", "--workers", "1", "--groups", "4", "--check");

        assertThat(run.exitCode).as(run.err).isZero();
        assertThat(run.out)
                .containsPattern("time: [0-9.]+ s for n=64 block 8 \\(512 tasks, 1 workers in each of 4 groups\\)")
                .contains("check: equal, bit for bit, to the sequential blocked product");
    }

    /** One JVM per group through the launcher: G0 schedules, G1.. only run tasks; C equals the sequential C. */
    @ParameterizedTest
    @CsvSource({"matmul-2, 216, 8", "matmul-4, 64, 8", "matmul-4, 96, 32"})
    void shouldEqualTheSequentialProductWithWorkersInOtherGroupProcesses(String app, int n, int block)
            throws Exception {
        Path config = GroupCluster.configFor(app, dir);
        List<String> groups = app.equals("matmul-2") ? List.of("G0", "G1") : List.of("G0", "G1", "G2", "G3");
        BlockedMatrix expected = BlockedMatrix.zeros(n, block);
        expected.addProductSequential(BlockedMatrix.random(n, block, 5), BlockedMatrix.random(n, block, 6));
        try (GroupCluster cluster = GroupCluster.start(
                config,
                groups,
                "matmul",
                "--n",
                Integer.toString(n),
                "--block",
                Integer.toString(block),
                "--workers",
                "1",
                "--groups",
                Integer.toString(groups.size()),
                "--seed",
                "5",
                "--check")) {
            Map<String, Integer> codes = cluster.awaitExit(80);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            assertThat(cluster.output("G0"))
                    .contains("1 workers in each of " + groups.size() + " groups")
                    .contains("checksum: " + expected.checksum() + "\n")
                    .contains("check: equal, bit for bit, to the sequential blocked product");
            assertThat(cluster.output("G1")).isEmpty();
        }
    }

    @Test
    void shouldRejectABlockThatDoesNotDivideTheOrder() {
        AppRunner run = run("matmul", "--n", "100", "--block", "8");

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--n 100 --block 8: expected 1 <= N <= 8192 and B dividing N");
    }

    @Test
    void shouldDetectAWrongProduct() {
        BlockedMatrix a = BlockedMatrix.random(16, 8, 1), b = BlockedMatrix.random(16, 8, 2);
        BlockedMatrix c = BlockedMatrix.zeros(16, 8), other = BlockedMatrix.zeros(16, 8);
        c.addProductSequential(a, b);
        other.addProductSequential(b, a);

        assertThat(c.bitEqual(other)).isFalse(); // the check can fail
    }
}
