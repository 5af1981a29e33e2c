package org.fastflowj.examples.clickwindows;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.fastflowj.examples.AppRunner;
import org.fastflowj.stream.CollectSink;
import org.fastflowj.stream.JobStats;
import org.fastflowj.stream.Sinks;
import org.fastflowj.stream.Sources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(60)
class ClickWindowsTest {
    private static final int CLICKS = 200_000;

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 3})
    void shouldCountEveryUsersClicksPerWindowAsABruteForceCountDoes(int parallelism) {
        ClickGenerator generator = new ClickGenerator(100, 1);
        CollectSink<String> out = Sinks.collect();
        JobStats stats = ClickWindows.countPerUser(Sources.generator(CLICKS, 0, generator::line), parallelism, out);

        Map<String, Long> counts = new TreeMap<>();
        for (long seq = 0; seq < CLICKS; seq++) {
            counts.merge(generator.ts(seq) / 10_000 * 10_000 + "," + generator.user(seq), 1L, Long::sum);
        }
        List<String> expected = new ArrayList<>();
        counts.forEach((window, n) -> expected.add(window + "," + n));
        assertThat(stats.totalLateRecords()).isZero();
        assertThat(out.items()).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void withCheckpointsTheCommandWritesTheSameCountsAndKeepsItsCheckpoints(@TempDir Path dir) throws IOException {
        Path plain = dir.resolve("plain.out");
        Path checkpointed = dir.resolve("checkpointed.out");
        Path store = dir.resolve("checkpoints");
        AppRunner a = AppRunner.run("clickwindows", "--clicks", "300000", "--output", plain.toString());
        AppRunner b = AppRunner.run(
                "clickwindows",
                "--clicks",
                "300000",
                "--output",
                checkpointed.toString(),
                "--checkpoints",
                store.toString(),
                "--checkpoint-interval",
                "PT0.02S");

        assertThat(a.exitCode).as(a.toString()).isZero();
        assertThat(b.exitCode).as(b.toString()).isZero();
        assertThat(Files.readAllLines(checkpointed)).containsExactlyInAnyOrderElementsOf(Files.readAllLines(plain));
        try (Stream<Path> files = Files.list(store)) {
            assertThat(files.map(f -> f.getFileName().toString())).anyMatch(f -> f.matches("chk-\\d+\\.ffcp"));
        }
    }

    @Test
    void resumeWithoutACheckpointDirectoryIsRefused() {
        AppRunner run = AppRunner.run("clickwindows", "--clicks", "10", "--resume");

        assertThat(run.exitCode).as(run.toString()).isNotZero();
        assertThat(run.err).contains("--resume needs --checkpoints DIR");
    }
}
