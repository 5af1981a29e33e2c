package org.fastflowj.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.testing.SmallDisk;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A one-process run of an example whose standard output cannot be written: into a pipe whose reader left
 * after three lines ({@code | head -3}) or onto a full disk (a real 64 KiB tmpfs). The run exits 2 and
 * says so on stderr, as {@code grep} does; read whole, the same run exits 0 with every line.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class StandardOutputTest {
    private static final int MATCHES = 30_000;

    @TempDir
    Path dir;

    private Path corpus;

    @BeforeEach
    void writeCorpus() throws IOException {
        corpus = Files.createDirectories(dir.resolve("corpus"));
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < MATCHES; i++) {
            text.append("a needle in line ").append(i).append(" of a haystack long enough to fill pipes\n");
        }
        Files.writeString(corpus.resolve("haystack.txt"), text);
    }

    @Test
    void shouldExit2NamingStdoutWhenTheReaderClosesThePipeEarly() throws Exception {
        Process run = start(new ProcessBuilder(fileSearch())
                .redirectError(dir.resolve("err.txt").toFile()));
        try {
            try (BufferedReader head =
                    new BufferedReader(new InputStreamReader(run.getInputStream(), StandardCharsets.UTF_8))) {
                for (int i = 0; i < 3; i++) {
                    assertThat(head.readLine()).as("result line %d", i).contains("needle");
                }
            }
            assertExits2Naming(run, "ff-examples: cannot write to standard output: ");
        } finally {
            run.destroyForcibly();
        }
    }

    @Test
    void shouldExit2NamingStdoutWhenTheDiskIsFull() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("full"), 64)) {
            assumeTrue(disk.mounted(), disk.why());
            Process run = start(new ProcessBuilder(fileSearch())
                    .redirectOutput(disk.path().resolve("out.txt").toFile())
                    .redirectError(dir.resolve("err.txt").toFile()));
            try {
                assertExits2Naming(run, "ff-examples: cannot write to standard output: No space left on device");
            } finally {
                run.destroyForcibly();
            }
        }
    }

    @Test
    void shouldExit0WithEveryLineWhenTheOutputIsReadWhole() throws Exception {
        Path out = dir.resolve("out.txt");
        Process run = start(new ProcessBuilder(fileSearch())
                .redirectOutput(out.toFile())
                .redirectError(dir.resolve("err.txt").toFile()));
        try {
            assertThat(run.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(run.exitValue())
                    .as(Files.readString(dir.resolve("err.txt")))
                    .isZero();
            assertThat(Files.readAllLines(out)).hasSize(MATCHES);
        } finally {
            run.destroyForcibly();
        }
    }

    /** {@code ff-examples filesearch} over the corpus, in a small JVM of its own. */
    private List<String> fileSearch() {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx96m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName()));
        command.addAll(List.of("filesearch", "--dirs", corpus.toString(), "--word", "needle"));
        return command;
    }

    private static Process start(ProcessBuilder builder) throws IOException {
        Process process = builder.start();
        process.getOutputStream().close();
        return process;
    }

    private void assertExits2Naming(Process run, String message) throws Exception {
        assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("the run ends").isTrue();
        String err = Files.readString(dir.resolve("err.txt"));
        assertThat(run.exitValue()).as(err).isEqualTo(2);
        assertThat(err).contains(message);
    }
}
