package org.fastflowj.examples.matsquare;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.examples.AppRunner;
import org.fastflowj.examples.GroupCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class MatSquareTest {
    @TempDir
    Path dir;

    /** The reference: each matrix squared by a plain i-j-k triple loop, sums added in matrix order. */
    private static double sequentialChecksum(int count, int n, long seed) {
        double total = 0;
        for (int id = 0; id < count; id++) {
            double[] a = Matrix.generate(id, n, seed).values;
            double sum = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double c = 0;
                    for (int k = 0; k < n; k++) {
                        c += a[i * n + k] * a[k * n + j];
                    }
                    sum += c;
                }
            }
            total += sum;
        }
        return total;
    }

    @ParameterizedTest
    @ValueSource(ints = {32, 96})
    void shouldPrintTheSequentialChecksum(int size) {
        AppRunner run = AppRunner.run("matsquare", "--count", "12", "--size", Integer.toString(size), "--seed", "5");

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("checksum: " + sequentialChecksum(12, size, 5) + "\n");
        assertThat(run.out).containsPattern("time: [0-9.]+ s for 12 matrices " + size + "x" + size);
    }

    @Test
    void shouldRejectAMatrixOrderOutOfRange() {
        AppRunner run = AppRunner.run("matsquare", "--size", "0");

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--size 1..4096");
    }

    @Test
    void shouldPrintTheSameChecksumAsTwoGroupProcesses() throws Exception {
        Path config = GroupCluster.configFor("matsquare", dir);
        try (GroupCluster cluster = GroupCluster.start(
                config, List.of("G0", "G1"), "matsquare", "--count", "12", "--size", "64", "--seed", "5")) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            assertThat(cluster.output("G0")).contains("checksum: " + sequentialChecksum(12, 64, 5) + "\n");
            assertThat(cluster.output("G1")).isEmpty();
        }
    }
}
