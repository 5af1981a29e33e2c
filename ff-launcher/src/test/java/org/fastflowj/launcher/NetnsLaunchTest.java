package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Groups on three distinct hosts: A on this machine, B and C in network namespaces of their own, each
 * with its own address on a bridge and its own sshd. The launcher sees B's and C's addresses as other
 * machines and starts them through ssh; the groups talk over the bridge.
 *
 * <pre>
 *   root ns: bridge 10.213.x.1 (A, local)
 *      ├── veth ── ns1: 10.213.x.2 (sshd, B)
 *      └── veth ── ns2: 10.213.x.3 (sshd, C)
 * </pre>
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class NetnsLaunchTest {
    @TempDir
    Path dir;

    @Test
    void shouldRunGroupsOnDistinctNamespaceHostsThroughSsh() throws Exception {
        SshServer.assumeInstalled();
        int id = (int) (ProcessHandle.current().pid() % 200) + 20;
        String net = "10.213." + id;
        String bridge = "fflbr" + id;
        List<String> namespaces = List.of("fflns" + id + "a", "fflns" + id + "b");
        try {
            Assumptions.assumeTrue(
                    sh("ip link add " + bridge + " type bridge && ip addr add " + net + ".1/24 dev " + bridge
                            + " && ip link set " + bridge + " up"),
                    "skipped: cannot create a bridge (needs root and CAP_NET_ADMIN)");
            for (int i = 0; i < namespaces.size(); i++) {
                String ns = namespaces.get(i);
                String veth = "fflv" + id + (char) ('a' + i);
                Assumptions.assumeTrue(
                        sh("ip netns add " + ns + " && ip link add " + veth + " type veth peer name eth0 netns " + ns
                                + " && ip link set " + veth + " master " + bridge + " up"
                                + " && ip -n " + ns + " addr add " + net + "." + (i + 2) + "/24 dev eth0"
                                + " && ip -n " + ns + " link set eth0 up && ip -n " + ns + " link set lo up"),
                        "skipped: cannot create network namespace " + ns);
            }
            int sshPort = Launcher.freePort();
            try (SshServer b = SshServer.start(
                            Files.createDirectory(dir.resolve("b")), namespaces.get(0), net + ".2", sshPort);
                    SshServer c = SshServer.start(
                            Files.createDirectory(dir.resolve("c")),
                            namespaces.get(1),
                            net + ".3",
                            sshPort,
                            b.clientKey())) {
                Path config = dir.resolve("app.json");
                Files.writeString(
                        config,
                        "{\"groups\": [\n" + "  {\"name\": \"A\", \"endpoint\": \"" + net + ".1:" + Launcher.freePort()
                                + "\"},\n" + "  {\"name\": \"B\", \"endpoint\": \"" + net + ".2:" + Launcher.freePort()
                                + "\"},\n" + "  {\"name\": \"C\", \"endpoint\": \"" + net + ".3:" + Launcher.freePort()
                                + "\"}\n]}\n");
                List<String> options = new ArrayList<>(List.of("run", "-c", config.toString(), "--timeout", "90s"));
                // One port and one client key serve both servers, so one set of ssh options reaches both.
                assertThat(c.directOptions())
                        .isEqualTo(b.directOptions().stream()
                                .map(o -> o.replace(
                                        b.clientKey().toString(), c.clientKey().toString()))
                                .toList());
                options.addAll(b.directOptions());
                Launcher.Result result = Launcher.run(Launcher.args(options, Launcher.sumApp("1000")));
                try {
                    assertThat(result.code()).as(result.toString()).isZero();
                    assertThat(result.err()).contains("A (local", "B (ssh " + net + ".2", "C (ssh " + net + ".3");
                    assertThat(result.out()).contains("[C] sum=332833500 count=1000");
                } finally {
                    Launcher.killAll(result.pids());
                    RemoteProcesses.kill("DFF_Config=" + config.toAbsolutePath());
                }
            }
        } finally {
            for (String ns : namespaces) {
                sh("ip netns del " + ns);
            }
            sh("ip link del " + bridge);
        }
    }

    private static boolean sh(String script) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", script + " 2>&1").start();
        p.getInputStream().readAllBytes();
        return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
    }
}
