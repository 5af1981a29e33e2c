package org.fastflowj.launcher.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.CommonOptions;
import org.fastflowj.launcher.Launcher;
import org.fastflowj.launcher.apps.LingeringApp;
import org.fastflowj.launcher.apps.NamedStagesApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code check}: the config alone, and the config against the program's groups. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CheckCommandTest {
    @TempDir
    Path dir;

    @Test
    void shouldNameFileLineAndColumnOfABadValue() throws Exception {
        Path config = dir.resolve("app.json");
        Files.writeString(
                config,
                "{\n  \"groups\": [\n    {\"name\": \"A\", \"endpoint\": \"127.0.0.1:9000\", \"batchSize\": \"ten\"}\n  ]\n}\n");
        Launcher.Result result = Launcher.run("check", "-c", config.toString());
        assertThat(result.code()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err()).startsWith("app.json:3:").contains("groups[0].batchSize");
    }

    @Test
    void shouldAcceptAConfigWhoseGroupsMatchTheProgram() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Launcher.Result result = Launcher.run(args(config, Launcher.sumApp("10")));
        assertThat(result.code()).as(result.toString()).isZero();
        assertThat(result.out()).contains("A: 127.0.0.1:", "started locally", "the program's groups [A, B, C] match");
    }

    @Test
    void shouldAskTheProgramItsGroupsWithTheConfigItWillRunWith() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Launcher.Result result = Launcher.run(args(config, Launcher.configGroupsApp("10")));
        assertThat(result.code()).as(result.toString()).isZero();
        assertThat(result.out()).contains("the program's groups [A, B, C] match");
    }

    @Test
    void shouldAcceptAProgramWhoseGroupsTheConfigsBlocksListsMake() throws Exception {
        Path config = Launcher.config(
                dir, "127.0.0.1", "\"blocks\": [\"source\"]", "\"blocks\": [\"square\"]", "\"blocks\": [\"sink\"]");
        List<String> command = new ArrayList<>(Launcher.javaCommand());
        command.addAll(List.of(NamedStagesApp.class.getName(), "10"));

        Launcher.Result result = Launcher.run(args(config, command));

        assertThat(result.code()).as(result.toString()).isZero();
        assertThat(result.out()).contains("the program's groups [A, B, C] match");
    }

    @Test
    void shouldNameTheConfigsStringThatNamesNoBlockOfTheProgram() throws Exception {
        Path config = Launcher.config(
                dir, "127.0.0.1", "\"blocks\": [\"source\"]", "\"blocks\": [\"sqare\"]", "\"blocks\": [\"sink\"]");
        List<String> command = new ArrayList<>(Launcher.javaCommand());
        command.addAll(List.of(NamedStagesApp.class.getName(), "10"));

        Launcher.Result result = Launcher.run(args(config, command));

        assertThat(result.code()).as(result.toString()).isNotZero();
        assertThat(result.err()).contains("app.json:4:").contains("group 'B' lists \"sqare\", but no block");
    }

    @Test
    void shouldNameEveryGroupOnOneSideOnlyWithItsLine() throws Exception {
        Path config = dir.resolve("app.json");
        Files.writeString(
                config,
                "{\n  \"groups\": [\n"
                        + "    {\"name\": \"A\", \"endpoint\": \"127.0.0.1:9001\"},\n"
                        + "    {\"name\": \"B\", \"endpoint\": \"127.0.0.1:9002\"},\n"
                        + "    {\"name\": \"X\", \"endpoint\": \"127.0.0.1:9003\"}\n  ]\n}\n");
        Launcher.Result result = Launcher.run(args(config, Launcher.sumApp("10")));
        assertThat(result.code()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err())
                .contains("app.json: group 'C' is used by the program but not defined in the config")
                .contains("app.json:5:5: group 'X' is defined in the config but not used by the program");
    }

    @Test
    @Timeout(value = 40, unit = TimeUnit.SECONDS) // the program sleeps far longer: check does not wait for it
    void shouldTakeTheAnswerOfAProgramThatOutlivesItsMainAndStopIt() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Path pidFile = dir.resolve("pid");
        List<String> command = new ArrayList<>(Launcher.javaCommand());
        command.addAll(List.of(LingeringApp.class.getName(), pidFile.toString(), "600"));

        Launcher.Result result = Launcher.run(args(config, command));

        assertThat(result.code()).as(result.toString()).isZero();
        assertThat(result.out()).contains("the program's groups [A, B, C] match");
        Optional<ProcessHandle> program = ProcessHandle.of(Long.parseLong(Files.readString(pidFile)));
        if (program.isPresent()) {
            program.get().onExit().get(20, TimeUnit.SECONDS); // stopped by check, not by its own end
        }
    }

    private static String[] args(Path config, List<String> command) {
        List<String> args = new ArrayList<>(List.of("check", "-c", config.toString(), "--"));
        args.addAll(command);
        return args.toArray(String[]::new);
    }

    @Test
    void shouldWarnAboutPortsInsideTheEphemeralRangeButPass() throws Exception {
        Path config = writeGroups("127.0.0.1:32767", "127.0.0.1:32768", "127.0.0.1:60999", "127.0.0.1:61000");

        Launcher.Result result = Launcher.run("check", "-c", config.toString());

        assertThat(result.code()).as(result.toString()).isZero();
        assertThat(result.err().lines())
                .containsExactly(
                        "app.json:4:5: warning: group 'B' listens on port 32768, inside Linux's ephemeral port range"
                                + " (32768-60999): another program's outgoing connection may hold it when the group"
                                + " starts; expected a port below 32768",
                        "app.json:5:5: warning: group 'C' listens on port 60999, inside Linux's ephemeral port range"
                                + " (32768-60999): another program's outgoing connection may hold it when the group"
                                + " starts; expected a port below 32768");
        assertThat(result.out()).contains("app.json: ok, 4 groups");
    }

    @Test
    void shouldRejectTwoLocalGroupsOnTheSameAddressWrittenTwoWays() throws Exception {
        Path config = writeGroups("[::1]:9000", "[0:0:0:0:0:0:0:1]:9000");

        Launcher.Result result = Launcher.run("check", "-c", config.toString());

        assertThat(result.code()).as(result.toString()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err())
                .isEqualTo("app.json:4:5: group 'B' and group 'A' (3:5) both listen on port 9000 of this machine on"
                        + " overlapping addresses ([0:0:0:0:0:0:0:1]:9000 is 0:0:0:0:0:0:0:1, [::1]:9000 is"
                        + " 0:0:0:0:0:0:0:1): the second one cannot start; expected a port of its own for each group"
                        + " of one machine\n");
        assertThat(result.out()).doesNotContain(": ok");
    }

    @Test
    void shouldNameALocalGroupWhosePortAnotherProgramHolds() throws Exception {
        try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int held = other.getLocalPort();
            Path config = writeGroups("127.0.0.1:" + Launcher.freePort(), "127.0.0.1:" + held);

            Launcher.Result result = Launcher.run("check", "-c", config.toString());

            assertThat(result.code()).as(result.toString()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
            // A free port of the JDK's choice may lie in the ephemeral range: a warning for it may come too.
            assertThat(result.err())
                    .contains("app.json:4:5: group 'B' cannot listen on 127.0.0.1:" + held
                            + ": this machine refuses port " + held + " now (")
                    .contains("another program may hold it")
                    .doesNotContain("group 'A' cannot listen");
        }
        Path freed = writeGroups("127.0.0.1:" + Launcher.freePort(), "127.0.0.1:" + Launcher.freePort());
        assertThat(Launcher.run("check", "-c", freed.toString()).code()).isZero();
    }

    @Test
    void shouldRejectALocalGroupOnAPortAnotherListensOnWithEveryAddress() throws Exception {
        Path config = writeGroups("127.0.0.1:9000", "0.0.0.0:9000");

        Launcher.Result result = Launcher.run("check", "-c", config.toString());

        assertThat(result.code()).as(result.toString()).isEqualTo(CommonOptions.EXIT_BAD_CONFIG);
        assertThat(result.err()).startsWith("app.json:4:5: group 'B' and group 'A' (3:5) both listen on port 9000");
    }

    @Test
    void shouldWarnAboutTwoLocalGroupsOnOnePortOfDifferentAddresses() throws Exception {
        Path config = writeGroups("127.0.0.1:9000", "127.0.0.2:9000");

        Launcher.Result result = Launcher.run("check", "-c", config.toString());

        assertThat(result.code()).as(result.toString()).isZero();
        assertThat(result.err())
                .isEqualTo("app.json:4:5: warning: group 'B' and group 'A' (3:5) both listen on port 9000 of this"
                        + " machine, on different addresses (127.0.0.2:9000, 127.0.0.1:9000): a later change of either"
                        + " address makes them collide; expected a port of its own for each group of one machine\n");
    }

    @Test
    void shouldNotMindOnePortOnDifferentMachines() throws Exception {
        Path config = writeGroups("node1.example:9000", "node2.example:9000");

        Launcher.Result result = Launcher.run("check", "-c", config.toString());

        assertThat(result.code()).as(result.toString()).isZero();
        assertThat(result.err()).isEmpty();
    }

    /** A config with groups A, B, C... at {@code endpoints}, one per line from line 3, column 5. */
    private Path writeGroups(String... endpoints) throws Exception {
        StringBuilder json = new StringBuilder("{\n  \"groups\": [\n");
        for (int i = 0; i < endpoints.length; i++) {
            json.append("    {\"name\": \"")
                    .append((char) ('A' + i))
                    .append("\", \"endpoint\": \"")
                    .append(endpoints[i])
                    .append(i + 1 < endpoints.length ? "\"},\n" : "\"}\n");
        }
        Path config = dir.resolve("app.json");
        Files.writeString(config, json.append("  ]\n}\n").toString());
        return config;
    }
}
