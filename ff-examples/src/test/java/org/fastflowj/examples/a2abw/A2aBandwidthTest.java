package org.fastflowj.examples.a2abw;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.examples.AppRunner;
import org.fastflowj.examples.GroupCluster;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class A2aBandwidthTest {
    private static final int SIZE = 3_000_017; // not a multiple of anything

    @TempDir
    Path dir;

    private Path file;
    private long expectedSum;

    @BeforeEach
    void createFile() throws IOException {
        byte[] bytes = new byte[SIZE];
        new Random(4).nextBytes(bytes);
        file = Files.write(dir.resolve("data.bin"), bytes);
        for (int i = 0; i < bytes.length; i++) { // the reference: one sequential pass
            expectedSum += ((bytes[i] & 0xffL) + 1) * (i + 1L);
        }
    }

    @ParameterizedTest
    @CsvSource({"1, 1, 64", "2, 2, 64", "3, 5, 7"})
    void shouldDeliverEveryByteOnceToItsOwner(int l, int r, int chunkKb) {
        AppRunner run = AppRunner.run(
                "a2abw",
                "--input",
                file.toString(),
                "--lworkers",
                Integer.toString(l),
                "--rworkers",
                Integer.toString(r),
                "--chunk-kb",
                Integer.toString(chunkKb));

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(run.out).contains("total: " + SIZE + " bytes, weighted sum " + expectedSum);
        for (int j = 0; j < r; j++) {
            long part = (long) SIZE * (j + 1) / r - (long) SIZE * j / r;
            assertThat(run.out).contains("R" + (j + 1) + ": " + part + " bytes");
        }
        // timed from the first chunk sent to the last end: a send time lost on the wire would read as 1970
        Matcher window = Pattern.compile("aggregate over ([0-9.]+) s").matcher(run.out);
        assertThat(window.find()).as(run.out).isTrue();
        assertThat(Double.parseDouble(window.group(1))).isGreaterThan(0).isLessThan(60);
        assertThat(run.out).containsPattern("a2abw: [0-9.]+ MB/s aggregate");
    }

    @Test
    void shouldNameAMissingFileAndExitTwo() {
        Path missing = dir.resolve("missing.bin");

        AppRunner run = AppRunner.run("a2abw", "--input", missing.toString());

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--input: file not found: " + missing);
    }

    @Test
    void shouldNameADirectoryGivenAsTheInputAndTheFlagAtFault() {
        AppRunner folder = AppRunner.run("a2abw", "--input", dir.toString());
        AppRunner chunk = AppRunner.run("a2abw", "--input", dir.toString(), "--chunk-kb", "0");

        assertThat(folder.exitCode).isEqualTo(2);
        assertThat(folder.err).contains("--input: " + dir + " is a directory; expected a file");
        assertThat(chunk.exitCode).isEqualTo(2);
        assertThat(chunk.err).contains("--chunk-kb must be between 1 and 16384, got 0");
    }

    @Test
    void shouldMoveTheSameBytesAsFiveGroupProcesses() throws Exception {
        Path config = GroupCluster.configFor("a2abw", dir);
        List<String> groups = List.of("L1", "L2", "R1", "R2", "S");
        try (GroupCluster cluster = GroupCluster.start(config, groups, "a2abw", "--input", file.toString())) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            assertThat(cluster.output("S")).contains("total: " + SIZE + " bytes, weighted sum " + expectedSum);
            assertThat(cluster.output("L1") + cluster.output("R1")).isEmpty();
        }
    }
}
