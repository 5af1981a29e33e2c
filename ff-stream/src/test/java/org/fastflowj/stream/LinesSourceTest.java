package org.fastflowj.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One file read by several instances at once: every line exactly once, whatever the cut. */
@Timeout(60)
class LinesSourceTest {
    @TempDir
    Path dir;

    /** Lines of 0 to 300 characters, some with multi-byte characters, ended by \n or \r\n. */
    static List<String> writeLines(Path file, int count, long seed, boolean unterminatedLast) throws IOException {
        Random random = new Random(seed);
        List<String> lines = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            StringBuilder line = new StringBuilder(i + ":");
            int length = random.nextInt(10) == 0 ? 0 : random.nextInt(300);
            for (int c = 0; c < length; c++) {
                line.append(random.nextInt(20) == 0 ? 'é' : (char) ('a' + random.nextInt(26)));
            }
            lines.add(line.toString());
            text.append(line);
            if (i < count - 1 || !unterminatedLast) {
                text.append(random.nextBoolean() ? "\n" : "\r\n");
            }
        }
        Files.writeString(file, text.toString(), StandardCharsets.UTF_8);
        return lines;
    }

    static List<String> read(Path path, int parallelism, Set<String> threads) {
        StreamJob job = StreamJob.named("lines");
        CollectSink<String> out = Sinks.collect();
        job.source(Sources.lines(path))
                .parallelism(parallelism)
                .map(line -> {
                    threads.add(Thread.currentThread().getName());
                    return line;
                })
                .sink(out);
        job.run();
        List<String> lines = new ArrayList<>(out.items());
        lines.sort(null);
        return lines;
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 2, 3, 7, 16})
    void everyLineOfOneFileIsReadOnceByTheInstancesTogether(int parallelism) throws IOException {
        Path file = dir.resolve("big.txt");
        List<String> expected = writeLines(file, 20_000, parallelism, parallelism % 2 == 1);
        Collections.sort(expected);
        Set<String> threads = Collections.synchronizedSet(new HashSet<>());
        assertThat(read(file, parallelism, threads)).isEqualTo(expected);
        assertThat(threads).hasSize(parallelism);
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 2, 5})
    void aDirectoryOfFilesGivesEveryLineOnce(int parallelism) throws IOException {
        List<String> expected = new ArrayList<>();
        for (int f = 0; f < 3; f++) {
            for (String line : writeLines(dir.resolve("part-" + f), 500 + f, f, f == 1)) {
                expected.add(line);
            }
        }
        Files.writeString(dir.resolve("empty"), "");
        Collections.sort(expected);
        assertThat(read(dir, parallelism, Collections.synchronizedSet(new HashSet<>())))
                .isEqualTo(expected);
    }
}
