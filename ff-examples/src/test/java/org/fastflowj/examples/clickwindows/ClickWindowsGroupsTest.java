package org.fastflowj.examples.clickwindows;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.fastflowj.examples.AppRunner;
import org.fastflowj.examples.GroupCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The click windows with the window operator (two instances) in group W and the rest in group main, each
 * group its own JVM started by the launcher: the file the sink writes in main equals the one-process run's
 * and a brute-force count.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class ClickWindowsGroupsTest {
    private static final int CLICKS = 50_000;
    private static final int USERS = 40;

    @TempDir
    Path dir;

    @Test
    void shouldWriteTheOneProcessRunsCountsWithTheWindowsInAnotherGroupProcess() throws Exception {
        Path whole = dir.resolve("whole.csv");
        AppRunner oneProcess = AppRunner.run(args(whole));
        assertThat(oneProcess.exitCode).as(oneProcess.toString()).isZero();

        Path split = dir.resolve("split.csv");
        Path config = GroupCluster.configFor("clickwindows", dir);
        try (GroupCluster cluster = GroupCluster.start(config, List.of("main", "W"), args(split))) {
            Map<String, Integer> codes = cluster.awaitExit(120);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            assertThat(cluster.allOutput()).contains("[main] clickwindows: 0 late clicks");
        }
        List<String> expected = bruteForce();
        assertThat(sorted(split)).hasSize(expected.size()).isEqualTo(expected);
        assertThat(sorted(whole)).isEqualTo(expected);
        try (var left = Files.list(dir)) { // group W's process opened the sink too, and left no file
            assertThat(left.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("whole.csv", "split.csv", "clickwindows.json");
        }
    }

    private static String[] args(Path output) {
        return new String[] {
            "clickwindows",
            "--clicks",
            Integer.toString(CLICKS),
            "--users",
            Integer.toString(USERS),
            "--parallelism",
            "2",
            "--groups",
            "--output",
            output.toString()
        };
    }

    private static List<String> bruteForce() {
        ClickGenerator generator = new ClickGenerator(USERS, 1);
        Map<String, Long> counts = new TreeMap<>();
        for (long seq = 0; seq < CLICKS; seq++) {
            counts.merge(generator.ts(seq) / 10_000 * 10_000 + "," + generator.user(seq), 1L, Long::sum);
        }
        List<String> lines = new ArrayList<>();
        counts.forEach((window, n) -> lines.add(window + "," + n));
        lines.sort(null);
        return lines;
    }

    private static List<String> sorted(Path file) throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.sort(null);
        return lines;
    }
}
