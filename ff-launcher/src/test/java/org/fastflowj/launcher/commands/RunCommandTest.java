package org.fastflowj.launcher.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.CommonOptions;
import org.fastflowj.launcher.Launcher;
import org.fastflowj.launcher.apps.SumApp;
import org.fastflowj.launcher.apps.UngroupedApp;
import org.fastflowj.launcher.process.RunSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code run} with local groups: the three-group {@code SumApp} on loopback. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RunCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldPrefixEveryGroupsLinesAndExitZeroWhenEveryGroupSucceeds() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Path logs = dir.resolve("logs");
        Launcher.Result result = Launcher.run(Launcher.args(
                List.of("run", "-c", config.toString(), "--log-dir", logs.toString(), "--timeout", "60s"),
                Launcher.sumApp("1000")));
        try {
            assertThat(result.code()).as(result.toString()).isZero();
            assertThat(result.out()).contains("[A] A up", "[B] B up", "[C] C up", "[C] sum=332833500 count=1000");
            assertThat(result.err()).contains("started 3 of 3 groups in", "every group exited 0");
            assertThat(Files.readString(logs.resolve("C.log"))).contains("sum=332833500 count=1000");
            assertThat(Files.readString(logs.resolve("A.log"))).startsWith("A up");
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldRunAProgramWhoseGroupsComeFromItsConfig() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Launcher.Result result = Launcher.run(Launcher.args(
                List.of("run", "-c", config.toString(), "--no-status", "--timeout", "60s"),
                Launcher.configGroupsApp("10")));
        try {
            assertThat(result.code()).as(result.toString()).isZero();
            // A: 0..9, B: each plus one, C: the sum
            assertThat(result.out()).contains("[C] total=55");
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldStopTheOtherGroupsAndNameTheFailingOneWhenAGroupFails() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Launcher.Result result = Launcher.run(Launcher.args(
                List.of("run", "-c", config.toString(), "--timeout", "60s", "--grace", "2s"),
                Launcher.sumApp("1000000", "50", "1000")));
        try {
            assertThat(result.code()).as(result.toString()).isEqualTo(RunSession.EXIT_GROUP_FAILED);
            assertThat(result.err())
                    .contains("ff-launcher: group B failed first")
                    .contains("stopping the other groups")
                    .contains("the last lines of group B:")
                    .contains("  [B] ");
            assertThat(result.err().substring(result.err().indexOf("the last lines of group B:")))
                    .contains("square refuses 50");
            // the cause in two lines: the exception's message, and where the program threw it
            assertThat(result.err())
                    .contains("ff-launcher: group B failed with java.lang.IllegalStateException in node square:"
                            + " square refuses 50")
                    .contains("ff-launcher:   at " + SumApp.class.getName() + ".lambda$main$")
                    .contains("lines of stack traces are not shown: --full-traces shows them");
            // a peer names the origin in one line, without the frames of the library underneath
            assertThat(result.err())
                    .containsPattern("\\[[AC]\\] Exception in thread \"main\" .*node group B failed in abort")
                    .doesNotContain("\tat io.netty", "\tat org.fastflowj.core", "\tat java.base");
            assertThat(result.pids()).hasSize(3).allSatisfy(pid -> assertThat(
                            ProcessHandle.of(pid).filter(ProcessHandle::isAlive))
                    .isEmpty());
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldShowEveryFrameWithFullTracesAndKeepThemInTheLogFile() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Path logs = dir.resolve("logs");
        Launcher.Result result = Launcher.run(Launcher.args(
                List.of("run", "-c", config.toString(), "--timeout", "60s", "--grace", "2s", "--full-traces"),
                Launcher.sumApp("1000000", "50", "1000")));
        Launcher.Result condensed = Launcher.run(Launcher.args(
                List.of(
                        "run",
                        "-c",
                        config.toString(),
                        "--timeout",
                        "60s",
                        "--grace",
                        "2s",
                        "--log-dir",
                        logs.toString()),
                Launcher.sumApp("1000000", "50", "1000")));
        try {
            assertThat(result.code()).as(result.toString()).isEqualTo(RunSession.EXIT_GROUP_FAILED);
            // the first group to exit printed its whole trace before it exited
            assertThat(result.err())
                    .containsPattern("\\[[ABC]\\] \tat org.fastflowj.core.")
                    .doesNotContain("are not shown");
            assertThat(condensed.code()).as(condensed.toString()).isEqualTo(RunSession.EXIT_GROUP_FAILED);
            assertThat(condensed.err())
                    .doesNotContain("\tat org.fastflowj.core.")
                    .contains("every line is in the log files in " + logs);
            assertThat(Files.readString(logs.resolve("A.log"))
                            + Files.readString(logs.resolve("B.log"))
                            + Files.readString(logs.resolve("C.log")))
                    .contains("\tat org.fastflowj.core.");
        } finally {
            Launcher.killAll(result.pids());
            Launcher.killAll(condensed.pids());
        }
    }

    @Test
    void shouldStartNoGroupWhenTheProgramCreatesNoGroup() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        List<String> command = new java.util.ArrayList<>(Launcher.javaCommand());
        command.add(UngroupedApp.class.getName());
        Launcher.Result result =
                Launcher.run(Launcher.args(List.of("run", "-c", config.toString(), "--timeout", "60s"), command));
        assertThat(result.code()).as(result.toString()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err())
                .contains("app.json: the program creates no group")
                .contains("app.json:3:5: group 'A' is defined in the config but not used by the program")
                .contains("ff-launcher: started no group")
                .doesNotContain("started 3");
        assertThat(result.out()).doesNotContain("whole run");
    }

    @Test
    void shouldStartNoGroupWhenTheProgramNeverCallsDffInit() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        List<String> command = new java.util.ArrayList<>(Launcher.javaCommand());
        command.addAll(List.of(UngroupedApp.class.getName(), "no-init"));
        Launcher.Result result =
                Launcher.run(Launcher.args(List.of("run", "-c", config.toString(), "--timeout", "60s"), command));
        assertThat(result.code()).as(result.toString()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err())
                .contains("the program did not print its groups")
                .contains("does its main call args = DFF.init(args)")
                .doesNotContain("started 3");
        assertThat(result.out()).doesNotContain("whole run");
    }

    @Test
    void shouldSayInOneLineThatTheLogDirIsAFile() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Path file = Files.writeString(dir.resolve("logs.txt"), "");
        Launcher.Result result = Launcher.run(Launcher.args(
                List.of("run", "-c", config.toString(), "--log-dir", file.toString()), Launcher.sumApp("10")));
        assertThat(result.code()).as(result.toString()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err().strip())
                .isEqualTo("--log-dir " + file + " is a file; expected a directory (created if missing)");
    }

    @Test
    void shouldStopEveryGroupAndExit124WhenTheTimeoutIsReached() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Launcher.Result result = Launcher.run(Launcher.args(
                List.of("run", "-c", config.toString(), "--timeout", "4s", "--grace", "2s"),
                Launcher.sumApp("1000000", "-1", "10000")));
        try {
            assertThat(result.code()).as(result.toString()).isEqualTo(RunSession.EXIT_TIMEOUT);
            assertThat(result.err())
                    .contains("timeout: the run took longer than 4 s")
                    .contains("stopped group A", "stopped group B", "stopped group C");
            assertThat(result.pids()).hasSize(3).allSatisfy(pid -> assertThat(
                            ProcessHandle.of(pid).filter(ProcessHandle::isAlive))
                    .isEmpty());
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldPrintEveryGroupsExactCommandAndStartNothingOnDryRun() throws Exception {
        Path config = Launcher.config(
                dir,
                "127.0.0.1",
                "",
                "\"preCmd\": \"taskset -c 0\"",
                "\"host\": \"compute7\", \"jvmArgs\": [\"-Xmx1g\"]");
        Launcher.Result result = Launcher.run(
                "run",
                "-c",
                config.toString(),
                "--ssh-user",
                "ff",
                "--remote-dir",
                "/opt/app",
                "--dry-run",
                "--",
                "java",
                "-cp",
                "app.jar",
                "my.Main",
                "a b");
        String abs = config.toAbsolutePath().toString();
        assertThat(result.code()).as(result.toString()).isZero();
        assertThat(result.out())
                .contains("A: java -cp app.jar my.Main 'a b' --DFF_GName=A --DFF_Config=" + abs + " --DFF_Report\n")
                .contains("B: /bin/sh -c 'taskset -c 0 java -cp app.jar my.Main '\\''a b'\\'' --DFF_GName=B")
                .as("the host after --: ssh never takes it as an option")
                .contains("C: ssh -T -o BatchMode=yes -l ff -- compute7 ")
                .contains("cd /opt/app")
                .contains("java -Xmx1g -cp app.jar my.Main");
        assertThat(result.err()).doesNotContain("started");
    }

    @Test
    void shouldNameTheLineAndColumnAndStartNothingWhenTheConfigIsBad() throws Exception {
        Path config = dir.resolve("bad.json");
        Files.writeString(config, "{\n  \"groups\": [\n    {\"name\": \"A\", \"endpoint\": \"127.0.0.1:0\"}\n  ]\n}\n");
        Launcher.Result result = Launcher.run("run", "-c", config.toString(), "--", "true");
        assertThat(result.code()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err()).startsWith("bad.json:3:").contains("groups[0].endpoint");
    }
}
