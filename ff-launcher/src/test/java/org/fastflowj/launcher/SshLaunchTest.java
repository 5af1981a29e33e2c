package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.process.RunSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ssh path through a real sshd on loopback: group B's launch host is a name only ssh knows (an alias
 * whose {@code HostName} is 127.0.0.1), so the launcher starts it through ssh, not locally.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SshLaunchTest {
    private static final String ALIAS = "ff-launcher-ssh-test-host";

    @TempDir
    Path dir;

    @Test
    void shouldRunARemoteGroupThroughSshAndShipItsFilesOnlyWhenChanged() throws Exception {
        try (SshServer sshd =
                SshServer.start(Files.createDirectory(dir.resolve("sshd")), null, "127.0.0.1", Launcher.freePort())) {
            Path config = Launcher.config(dir, "127.0.0.1", "", "\"host\": \"" + ALIAS + "\"");
            Path shipped = Files.writeString(dir.resolve("data.txt"), "payload");
            Path remoteDir = dir.resolve("remote");
            List<String> options = new ArrayList<>(List.of("run", "-c", config.toString(), "--timeout", "60s"));
            options.addAll(sshd.launcherOptions());
            options.addAll(List.of("--remote-dir", remoteDir.toString(), "--ship", shipped.toString()));
            Launcher.Result result = Launcher.run(Launcher.args(options, Launcher.sumApp("1000")));
            try {
                assertThat(result.code()).as(result.toString()).isZero();
                assertThat(result.err()).contains("B (ssh " + ALIAS + ", pid", "shipped 1 of 1 files to " + ALIAS);
                assertThat(result.out()).contains("[B] B up", "[C] sum=332833500 count=1000");
                assertThat(Files.readString(remoteDir.resolve("data.txt"))).isEqualTo("payload");

                Launcher.Result again = Launcher.run(Launcher.args(options, Launcher.sumApp("10")));
                assertThat(again.code()).as(again.toString()).isZero();
                assertThat(again.err()).contains("shipped 0 of 1 files to " + ALIAS + " (1 unchanged)");
                Launcher.killAll(again.pids());
            } finally {
                Launcher.killAll(result.pids());
            }
        }
    }

    @Test
    void shouldStopTheRemoteGroupsWholeTreeWhenTheRunTimesOut() throws Exception {
        try (SshServer sshd =
                SshServer.start(Files.createDirectory(dir.resolve("sshd")), null, "127.0.0.1", Launcher.freePort())) {
            Path config = Launcher.config(dir, "127.0.0.1", "", "\"host\": \"" + ALIAS + "\"");
            List<String> options =
                    new ArrayList<>(List.of("run", "-c", config.toString(), "--timeout", "5s", "--grace", "2s"));
            options.addAll(sshd.launcherOptions());
            Launcher.Result result = Launcher.run(Launcher.args(options, Launcher.sumApp("1000000", "-1", "10000")));
            try {
                assertThat(result.code()).as(result.toString()).isEqualTo(RunSession.EXIT_TIMEOUT);
                assertThat(result.err()).contains("stopped group B: exit code 143");
                // The remote JVM is no child of ours: find it by the config path only this test uses.
                assertThat(RemoteProcesses.matching("DFF_Config=" + config.toAbsolutePath()))
                        .isEmpty();
            } finally {
                Launcher.killAll(result.pids());
                RemoteProcesses.kill("DFF_Config=" + config.toAbsolutePath());
            }
        }
    }

    @Test
    void shouldHandTheRemoteGroupTheRunsSecretThroughSshsInputNotItsCommandLine() throws Exception {
        try (SshServer sshd =
                SshServer.start(Files.createDirectory(dir.resolve("sshd")), null, "127.0.0.1", Launcher.freePort())) {
            Path config = Launcher.config(dir, "127.0.0.1", "", "\"host\": \"" + ALIAS + "\"");
            List<String> args = new ArrayList<>(List.of("run", "-c", config.toString(), "--grace", "2s"));
            args.addAll(sshd.launcherOptions());
            args.add("--");
            args.addAll(Launcher.sumApp("1000000", "-1", "10000"));
            try (LauncherProcess launcher = new LauncherProcess(args)) {
                List<Long> pids = Launcher.pidsIn(launcher.awaitLine(l -> l.contains("started 3 of 3 groups"), 30));
                launcher.awaitLine(l -> l.contains("[B] B secret:"), 30);
                launcher.awaitLine(l -> l.contains("[A] A secret:"), 30);
                Map<String, String> said = GroupSecrets.described(launcher.output());
                assertThat(said.get("B"))
                        .as(launcher.output())
                        .startsWith("43 chars")
                        .isEqualTo(said.get("A"));
                String secret = GroupSecrets.fromEnvironment(pids.get(0));
                assertThat(secret).hasSize(43);
                // Neither the ssh client here nor the shell and the group sshd started show it.
                assertThat(GroupSecrets.commandLinesContaining(secret)).isEmpty();
                assertThat(RemoteProcesses.matching("DFF_GName=B")).isNotEmpty();
            } finally {
                RemoteProcesses.kill("DFF_Config=" + config.toAbsolutePath());
            }
        }
    }
}
