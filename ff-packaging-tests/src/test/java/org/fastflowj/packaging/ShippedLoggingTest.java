package org.fastflowj.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jars ship one SLF4J provider each (SLF4J otherwise prints "No SLF4J providers were found" and
 * drops every log line, or warns about the choice it made among several), and the examples' log lines name
 * the group that wrote them.
 */
@Timeout(120)
class ShippedLoggingTest {
    @TempDir
    Path dir;

    @Test
    void shouldLogWithTheGroupsNameInEachGroupsLines() throws Exception {
        Path files = Files.createDirectories(dir.resolve("files"));
        Files.writeString(files.resolve("a.txt"), "one needle\nno match\n");
        Path config = LoopbackConfig.onFreePorts(
                BuiltArtifacts.ROOT.resolve("ff-examples/configs/filesearch.json"), dir.resolve("filesearch.json"));

        ChildProcess run = ChildProcess.run(
                dir,
                Map.of(),
                100,
                List.of(
                        BuiltArtifacts.java().toString(),
                        "-Xmx64m",
                        "-XX:TieredStopAtLevel=1",
                        "-jar",
                        BuiltArtifacts.launcherJar().toString(),
                        "run",
                        "--no-status",
                        "--timeout",
                        "80s",
                        "-c",
                        config.toString(),
                        "--",
                        BuiltArtifacts.java().toString(),
                        "-Xmx64m",
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-jar",
                        BuiltArtifacts.examplesJar().toString(),
                        "filesearch",
                        "--dirs",
                        files.toString(),
                        "--word",
                        "needle"));

        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.out()).as(run.describe()).contains("[G3] " + files.resolve("a.txt") + ":1:one needle");
        // Every group but the last to end logs "waiting for the other groups" at INFO from one of its threads:
        // the launcher's prefix and the log line's third column must name the same group.
        Matcher ended = Pattern.compile(
                        "(?m)^\\[(G\\d)\\] \\S+ INFO  (\\S+) \\[[^\\]]+\\] \\S*dist\\.run\\.lifecycle\\.GroupEnd"
                                + " - group (G\\d)'s part ended")
                .matcher(run.err());
        Set<String> logged = new TreeSet<>();
        while (ended.find()) {
            assertThat(ended.group(2))
                    .as(run.describe())
                    .isEqualTo(ended.group(1))
                    .isEqualTo(ended.group(3));
            logged.add(ended.group(1));
        }
        assertThat(logged).as(run.describe()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(run.err()).as(run.describe()).doesNotContain("SLF4J");
    }

    @Test
    void shouldPrintALogLineOnStderrThroughTheLaunchersProvider() throws Exception {
        assertLogsOneLineThroughSlf4jSimple(BuiltArtifacts.launcherJar());
    }

    @Test
    void shouldPrintALogLineOnStderrThroughTheExamplesProviderWithNoGroup() throws Exception {
        ChildProcess run = logOneLineWith(BuiltArtifacts.examplesJar());

        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.out()).as(run.describe()).isEmpty();
        assertThat(run.err())
                .as(run.describe())
                .matches(
                        "\\d\\d:\\d\\d:\\d\\d\\.\\d{3} INFO  - \\[main\\] org.fastflowj.packaging.LogOneLine - one line\n");
    }

    @Test
    void shouldPrintALogLineOnStderrThroughTheBenchmarksJarsOneProvider() throws Exception {
        assertLogsOneLineThroughSlf4jSimple(BuiltArtifacts.benchmarksJar());
    }

    /** slf4j-simple's line and nothing else: a second provider would add SLF4J's warning lines. */
    private void assertLogsOneLineThroughSlf4jSimple(Path jar) throws Exception {
        ChildProcess run = logOneLineWith(jar);

        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.out()).as(run.describe()).isEmpty();
        assertThat(run.err())
                .as(run.describe())
                .isEqualTo("[main] INFO org.fastflowj.packaging.LogOneLine - one line\n");
    }

    /** The shipped jar and this module's test classes (which have no SLF4J of their own) on the class path. */
    private ChildProcess logOneLineWith(Path jar) throws Exception {
        Path testClasses = Path.of(LogOneLine.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        return ChildProcess.run(
                dir,
                Map.of(),
                60,
                List.of(
                        BuiltArtifacts.java().toString(),
                        "-Xmx64m",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        jar + java.io.File.pathSeparator + testClasses,
                        LogOneLine.class.getName()));
    }
}
