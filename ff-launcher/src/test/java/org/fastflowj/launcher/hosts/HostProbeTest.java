package org.fastflowj.launcher.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.Launcher;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe before a restart, with real processes: this machine is never asked, a namespace is asked with
 * {@code ip netns exec}, any other host through ssh with the run's own options, and each refusal says why.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostProbeTest {
    @TempDir
    Path dir;

    @Test
    void shouldFindThisMachineUsableWithoutAskingIt() {
        HostProbe probe = new HostProbe(new RemoteOptions(), LocalHosts.detect(), name -> false);

        assertThat(probe.unusable(List.of("127.0.0.1", "localhost"))).isEmpty();
    }

    @Test
    void shouldFindAMissingNamespaceUnusable() {
        HostProbe probe = new HostProbe(new RemoteOptions(), LocalHosts.detect(), name -> false);

        assertThat(probe.unusable(List.of("netns:ffgone")))
                .isEqualTo(Map.of("netns:ffgone", "no network namespace 'ffgone' on this machine"));
    }

    @Test
    void shouldRunTrueInAnExistingNamespace() throws Exception {
        String name = "ffprobe" + ProcessHandle.current().pid() % 1000;
        try {
            Assumptions.assumeTrue(
                    run("ip", "netns", "add", name),
                    "skipped: cannot create a network namespace (needs root and iproute2)");
            HostProbe probe = new HostProbe(new RemoteOptions(), LocalHosts.detect());

            assertThat(probe.unusable(List.of("netns:" + name))).isEmpty();
        } finally {
            run("ip", "netns", "del", name);
        }
    }

    @Test
    void shouldFindAHostUnusableWhenSshCannotReachIt() {
        RemoteOptions remote = new RemoteOptions();
        int closed = Launcher.freePort();
        remote.sshOptions = List.of("HostName=127.0.0.1", "Port=" + closed);
        HostProbe probe = new HostProbe(remote, LocalHosts.detect(), name -> false);

        Map<String, String> unusable = probe.unusable(List.of("node-gone.invalid"));

        assertThat(unusable).containsOnlyKeys("node-gone.invalid");
        assertThat(unusable.get("node-gone.invalid"))
                .startsWith("`true` there exited 255: ")
                .contains("port " + closed, "Connection refused");
    }

    @Test
    void shouldAskThroughTheRunsSshOptionsWithItsOwnConnectTimeoutAfterThem() throws Exception {
        Path args = dir.resolve("args");
        Path ssh = dir.resolve("fake-ssh");
        // Writes what it was given and runs nothing: the probe's argument list is what is checked.
        Files.writeString(ssh, "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + args + "\n");
        Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwx------"));
        RemoteOptions remote = new RemoteOptions();
        remote.sshCommand = ssh.toString();
        remote.user = "ff";
        remote.sshOptions = List.of("ConnectTimeout=2");
        HostProbe probe = new HostProbe(remote, LocalHosts.detect(), name -> false);

        assertThat(probe.unusable(List.of("node7.invalid"))).isEmpty();
        assertThat(Files.readAllLines(args))
                .containsExactly(
                        "-T",
                        "-o",
                        "BatchMode=yes",
                        "-o",
                        "ConnectTimeout=2",
                        "-l",
                        "ff",
                        "-o",
                        "ConnectTimeout=5",
                        "--",
                        "node7.invalid",
                        "true");
    }

    private static boolean run(String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        try {
            p.getInputStream().readAllBytes();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } finally {
            p.destroyForcibly();
        }
    }
}
