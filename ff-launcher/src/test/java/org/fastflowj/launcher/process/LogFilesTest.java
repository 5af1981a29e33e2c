package org.fastflowj.launcher.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.CommonOptions;
import org.fastflowj.launcher.Launcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A group's log file in {@code --log-dir}: in that folder, never through a link. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LogFilesTest {
    @TempDir
    Path dir;

    @Test
    void shouldCreateOrEmptyTheGroupsLogInTheFolder() throws Exception {
        Path logs = Files.createDirectory(dir.resolve("logs"));
        Files.writeString(logs.resolve("G1.log"), "last run");

        Path file = LogFiles.create(logs, "G1");

        assertThat(file).isEqualTo(logs.toAbsolutePath().resolve("G1.log")).isEmptyFile();
    }

    @ParameterizedTest
    @ValueSource(strings = {"../../../escaped", "/abs/path", "a/b", "../logs/../x"})
    void shouldRefuseANameWhoseLogIsOutsideTheFolder(String group) throws Exception {
        Path logs = Files.createDirectories(dir.resolve("a/b/logs"));

        assertThatThrownBy(() -> LogFiles.create(logs, group))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("group " + group + ": its log file ")
                .hasMessageContaining("is not in --log-dir " + logs);
        try (var everything = Files.walk(dir)) {
            assertThat(everything.filter(Files::isRegularFile))
                    .as("no file made anywhere")
                    .isEmpty();
        }
    }

    @Test
    void shouldRefuseALinkPutUnderTheLogsNameAndLeaveItsTargetAlone() throws Exception {
        Path logs = Files.createDirectory(dir.resolve("logs"));
        Path precious = Files.writeString(dir.resolve("precious.txt"), "keep me");
        Files.createSymbolicLink(logs.resolve("A.log"), precious);

        assertThatThrownBy(() -> LogFiles.create(logs, "A"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("group A: its log file " + logs.resolve("A.log") + " is a symbolic link");
        assertThat(precious).hasContent("keep me");
    }

    @Test
    void shouldStartNoGroupWhenALogIsALinkAndStillWriteTheLogsOfAValidConfig() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Path logs = Files.createDirectory(dir.resolve("logs"));
        Path precious = Files.writeString(dir.resolve("precious.txt"), "keep me");
        Files.createSymbolicLink(logs.resolve("B.log"), precious);
        List<String> options =
                List.of("run", "-c", config.toString(), "--log-dir", logs.toString(), "--timeout", "60s");

        Launcher.Result linked = Launcher.run(Launcher.args(options, Launcher.sumApp("10")));
        try {
            assertThat(linked.code()).as(linked.toString()).isNotZero();
            assertThat(linked.err()).contains("is a symbolic link");
            assertThat(precious).hasContent("keep me");
        } finally {
            Launcher.killAll(linked.pids());
        }

        Files.delete(logs.resolve("B.log"));
        Launcher.Result plain = Launcher.run(Launcher.args(options, Launcher.sumApp("10")));
        try {
            assertThat(plain.code()).as(plain.toString()).isZero();
            assertThat(logs.resolve("A.log")).content().startsWith("A up");
            assertThat(logs.resolve("B.log")).content().startsWith("B up");
            assertThat(logs.resolve("C.log")).content().contains("count=10");
        } finally {
            Launcher.killAll(plain.pids());
        }
    }

    @Test
    void shouldStartNothingForAConfigWhoseGroupNameLeavesTheFolder() throws Exception {
        Path config = Files.writeString(
                dir.resolve("bad.json"),
                "{\"groups\": [\n  {\"name\": \"../../escaped\", \"endpoint\": \"127.0.0.1:" + Launcher.freePort()
                        + "\"}]}");
        Path logs = dir.resolve("deep/down/logs");

        Launcher.Result result = Launcher.run(Launcher.args(
                List.of("run", "-c", config.toString(), "--log-dir", logs.toString()), Launcher.sumApp("10")));

        assertThat(result.code()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err())
                .startsWith("bad.json:2:12: groups[0].name: \"../../escaped\" is not a group name; expected 1 to 64"
                        + " letters");
        assertThat(dir.resolve("deep/escaped.log")).doesNotExist();
        assertThat(logs).doesNotExist();
    }
}
