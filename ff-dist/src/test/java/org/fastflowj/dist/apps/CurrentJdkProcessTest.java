package org.fastflowj.dist.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * On JDK 25 (the build's own JDK when it is 25 or later, else one installed under /usr/lib/jvm), a
 * pipeline in one process and a run of two groups print no line of their own on stderr: no
 * {@code sun.misc.Unsafe} warning (JDK 24 and later warn about every library that calls it), nor any
 * other JVM warning. Skipped, saying why, when no JDK 25 is installed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CurrentJdkProcessTest {
    private static final int FEATURE = 25;
    private static final long COUNT = 20_000;

    @TempDir
    Path dir;

    @Test
    void shouldRunAPipelineOnJdk25WithoutAWarning() throws Exception {
        Path javaHome = jdk25();
        Path stdout = dir.resolve("out.log");
        Path stderr = dir.resolve("err.log");
        Process process = new ProcessBuilder(
                        javaHome.resolve("bin").resolve("java").toString(),
                        "-Xmx64m",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        QuietRunApp.class.getName(),
                        "local",
                        Long.toString(COUNT))
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        try {
            assertThat(process.waitFor(60, TimeUnit.SECONDS))
                    .as("the pipeline ended within 60 s")
                    .isTrue();
            String err = Files.readString(stderr);

            assertThat(process.exitValue()).as(err).isZero();
            assertThat(Files.readString(stdout))
                    .contains("pipeline sum=" + sumOfSquares())
                    .contains("accelerator sum=" + sumOfSquares());
            assertNoWarning(err);
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    @Test
    void shouldRunTwoGroupsOnJdk25WithoutAWarning() throws Exception {
        Path javaHome = jdk25();
        List<String> groups = List.of("A", "B");
        Path config = ProcessCluster.config(dir, groups, "");
        // ProcessCluster passes --enable-native-access=ALL-UNNAMED, as a user must on JDK 24 and later for
        // Netty's native transport (docs/distributed.md).
        try (ProcessCluster cluster =
                ProcessCluster.startOn(javaHome, QuietRunApp.class, config, groups, List.of(), Long.toString(COUNT))) {
            Map<String, Integer> codes = cluster.awaitExit(60);

            assertThat(codes).as(cluster.allOutput()).containsOnly(Map.entry("A", 0), Map.entry("B", 0));
            assertThat(cluster.output("B"))
                    .contains("sum=" + LongStream.range(0, COUNT).sum());
            for (String g : groups) {
                assertNoWarning(cluster.output(g)); // stdout and stderr together: stricter
            }
        }
    }

    private static void assertNoWarning(String output) {
        assertThat(output.lines())
                .as("lines printed by the JVM or a library")
                .noneMatch(line -> line.contains("sun.misc.Unsafe") || line.contains("WARNING"));
    }

    private static long sumOfSquares() {
        return LongStream.range(0, COUNT).map(x -> x * x).sum();
    }

    /** The JDK 25 to run on, or the test is skipped. */
    private static Path jdk25() throws IOException {
        Optional<Path> home = Runtime.version().feature() >= FEATURE
                ? Optional.of(Path.of(System.getProperty("java.home")))
                : installedJdk(Path.of("/usr/lib/jvm"));
        assumeTrue(
                home.isPresent(),
                "no JDK " + FEATURE + " installed under /usr/lib/jvm (and this build runs on JDK "
                        + Runtime.version().feature() + "): .ci/run installs one when Debian offers it");
        return home.get();
    }

    private static Optional<Path> installedJdk(Path jvms) throws IOException {
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(h -> Files.isExecutable(h.resolve("bin").resolve("java")))
                    .filter(CurrentJdkProcessTest::isJdk25)
                    .sorted()
                    .findFirst();
        }
    }

    /** The JDK's {@code release} file says {@code JAVA_VERSION="25"} or {@code "25.x.y"}. */
    private static boolean isJdk25(Path home) {
        try {
            return Files.readAllLines(home.resolve("release")).stream()
                    .anyMatch(line -> line.startsWith("JAVA_VERSION=\"" + FEATURE + "\"")
                            || line.startsWith("JAVA_VERSION=\"" + FEATURE + "."));
        } catch (IOException e) {
            return false; // no release file: not a JDK we can name
        }
    }
}
