package org.fastflowj.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jars ship an SLF4J provider (SLF4J otherwise prints "No SLF4J providers were found" and
 * drops every log line), and the examples' log lines name the group that wrote them.
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
        // ff-dist logs each group's end at INFO from one of the group's threads: the third column is its group.
        for (String group : List.of("G1", "G2", "G3")) {
            assertThat(run.err())
                    .as(run.describe())
                    .containsPattern("(?m)^\\[" + group + "\\] \\S+ INFO  " + group
                            + " \\[[^\\]]+\\] org.fastflowj.dist.run.GroupEnd - group " + group + "'s part ended");
        }
        assertThat(run.err()).as(run.describe()).doesNotContain("SLF4J");
    }

    @Test
    void shouldPrintALogLineOnStderrThroughTheLaunchersProvider() throws Exception {
        ChildProcess run = logOneLineWith(BuiltArtifacts.launcherJar());

        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.out()).as(run.describe()).isEmpty();
        assertThat(run.err())
                .as(run.describe())
                .isEqualTo("[main] INFO org.fastflowj.packaging.LogOneLine - one line\n");
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
