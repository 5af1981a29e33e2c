package org.fastflowj.examples.wordcount;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 90, unit = TimeUnit.SECONDS)
class WordCountTest {
    @TempDir
    Path dir;

    private Path generate(int lines, long seed) {
        return generate(dir, lines, seed);
    }

    /** {@code lines} generated tweets in {@code dir}, by the {@code wordcount-gen} command. */
    static Path generate(Path dir, int lines, long seed) {
        Path file = dir.resolve("tweets-" + seed + ".txt");
        AppRunner gen = AppRunner.run(
                "wordcount-gen",
                "--lines",
                Integer.toString(lines),
                "--seed",
                Long.toString(seed),
                "--output",
                file.toString());
        assertThat(gen.exitCode).as(gen.toString()).isZero();
        return file;
    }

    /** The reference: a sequential count of the whitespace-separated words, as the expected TSV lines. */
    static List<String> sequentialCounts(Path file) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        for (String line : Files.readAllLines(file, UTF_8)) {
            for (String word : line.split("\\s+")) {
                if (!word.isEmpty()) {
                    counts.merge(word, 1L, Long::sum);
                }
            }
        }
        List<String> lines = new ArrayList<>();
        counts.forEach((word, n) -> lines.add(word + "\t" + n));
        return lines;
    }

    @Test
    void shouldGenerateTheSameTweetLikeLinesForTheSameSeed() throws IOException {
        List<String> first = Files.readAllLines(generate(2000, 7));
        List<String> again = Files.readAllLines(generate(2000, 7));
        List<String> other = Files.readAllLines(generate(2000, 8));

        assertThat(first).hasSize(2000).isEqualTo(again).isNotEqualTo(other);
        assertThat(first).allSatisfy(line -> assertThat(line.length()).isBetween(1, 280));
        assertThat(String.join(" ", first)).contains("#", "@", ",");
    }

    @Test
    void shouldDrawWordsWithAZipfLikeSkew() throws IOException {
        List<Long> counts = sequentialCounts(generate(3000, 3)).stream()
                .map(l -> Long.parseLong(l.substring(l.indexOf('\t') + 1)))
                .sorted((a, b) -> Long.compare(b, a))
                .toList();

        assertThat(counts.get(0)).isGreaterThan(counts.get(9) * 5); // rank 1 vs rank 10: about 10x
        assertThat(counts.get(counts.size() - 1)).isEqualTo(1L); // a long tail of rare words
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 7})
    void shouldCountExactlyAsASequentialCountWhateverTheSources(int sources) throws IOException {
        Path input = generate(3000, 11);
        Path output = dir.resolve("counts-" + sources + ".tsv");

        AppRunner run = AppRunner.run(
                "wordcount",
                "--input",
                input.toString(),
                "--sources",
                Integer.toString(sources),
                "--output",
                output.toString());

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(Files.readAllLines(output, UTF_8)).isEqualTo(sequentialCounts(input));
        assertThat(run.out)
                .containsPattern("wordcount: 3000 lines, \\d+ words, \\d+ distinct in [0-9.]+ s: \\d+ lines/s");
    }

    @Test
    void shouldKeepCaseAndPunctuationAndHandleOddLines() throws IOException {
        Path input = Files.writeString(
                dir.resolve("odd.txt"), "Hello, hello\tHELLO  hello\r\n\n   \nno-newline-at-end hello,", UTF_8);
        Path output = dir.resolve("odd.tsv");

        AppRunner run = AppRunner.run(
                "wordcount", "--input", input.toString(), "--sources", "2", "--output", output.toString());

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(Files.readAllLines(output, UTF_8))
                .containsExactly("HELLO\t1", "Hello,\t1", "hello\t2", "hello,\t1", "no-newline-at-end\t1");
        assertThat(run.out).contains("wordcount: 4 lines, 6 words, 5 distinct");
    }

    @Test
    void shouldHoldTheRateOfEachSource() throws IOException {
        Path input = generate(200, 5);

        long start = System.nanoTime();
        AppRunner run = AppRunner.run("wordcount", "--input", input.toString(), "--sources", "2", "--rate", "400");
        double seconds = (System.nanoTime() - start) / 1e9;

        assertThat(run.exitCode).as(run.toString()).isZero();
        assertThat(seconds).isGreaterThan(0.2); // 100 lines per source at 400 lines/s: at least 0.25 s
    }

    @Test
    void shouldCountTheLinesOfATcpSource() throws Exception {
        Path input = generate(500, 17);
        Path output = dir.resolve("socket.tsv");
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread feeder = new Thread(() -> {
                try (Socket client = server.accept()) {
                    client.getOutputStream().write(Files.readAllBytes(input));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            feeder.start();

            AppRunner run = AppRunner.run(
                    "wordcount",
                    "--socket",
                    "127.0.0.1:" + server.getLocalPort(),
                    "--sources",
                    "1",
                    "--output",
                    output.toString());
            feeder.join();

            assertThat(run.exitCode).as(run.toString()).isZero();
            assertThat(Files.readAllLines(output, UTF_8)).isEqualTo(sequentialCounts(input));
        }
    }

    @Test
    void shouldNameAMissingInputFileAndExitTwo() {
        Path missing = dir.resolve("no-such.txt");

        AppRunner run = AppRunner.run("wordcount", "--input", missing.toString());

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("file not found: " + missing).doesNotContain("Exception");
        assertThat(run.err.lines().count()).isEqualTo(2); // the message and the pointer to --help
    }

    @Test
    void shouldRefuseADirectoryAsTheOutputBeforeCounting() throws Exception {
        Path input = generate(100, 3);

        AppRunner run = AppRunner.run("wordcount", "--input", input.toString(), "--output", dir.toString());

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("wordcount: --output: " + dir + " is a directory; expected a file to write");
        assertThat(run.out).doesNotContain("lines");
    }

    @Test
    void shouldRefuseADirectoryAsTheGeneratorsOutput() {
        AppRunner run = AppRunner.run("wordcount-gen", "--lines", "10", "--output", dir.toString());

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--output: " + dir + " is a directory; expected a file to write");
    }

    @Test
    void shouldNameADirectoryGivenAsTheInput() {
        AppRunner run = AppRunner.run("wordcount", "--input", dir.toString());

        assertThat(run.exitCode).isEqualTo(2);
        assertThat(run.err).contains("--input: " + dir + " is a directory; expected a file");
    }

    @ParameterizedTest
    @ValueSource(strings = {"wordcount", "wordcount-2"})
    void shouldCountTheSameAsGroupProcesses(String configName) throws Exception {
        Path input = generate(3000, 13);
        Path output = dir.resolve("dist.tsv");
        Path config = GroupCluster.configFor(configName, dir);
        List<String> groups = configName.equals("wordcount")
                ? List.of("G1", "G2", "G3", "G4", "G0", "GS")
                : List.of("G1", "G2", "G0", "GS");
        try (GroupCluster cluster = GroupCluster.start(
                config,
                groups,
                "wordcount",
                "--input",
                input.toString(),
                "--sources",
                Integer.toString(groups.size() - 2),
                "--output",
                output.toString())) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes.values()).as(cluster.allOutput()).containsOnly(0);
            assertThat(Files.readAllLines(output, UTF_8)).isEqualTo(sequentialCounts(input));
            assertThat(cluster.output("GS")).contains("wordcount: 3000 lines");
        }
    }
}
