package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.checkpoint.GroupCheckpoints;
import org.fastflowj.launcher.apps.CheckpointedSumApp;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lost ssh host, for real: {@code CheckpointedSumApp} with A and C on this machine and B through ssh on
 * a namespace host with its own sshd; the spare is a second such host. Once checkpoints are complete, B's
 * host dies (every process in its namespace killed, the namespace deleted, its link with it); ssh to it
 * then fails, and the launcher must restart B through ssh on the spare, with the same ssh options. Needs
 * root, iproute2 and sshd; skipped otherwise, saying so.
 *
 * <pre>
 *   this machine: bridge 10.219.x.1 (A, C)
 *      ├── veth ── ns a: 10.219.x.2 (sshd, B; lost mid-run)
 *      └── veth ── ns s: 10.219.x.3 (sshd; the spare)
 * </pre>
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SpareSshHostLaunchTest {
    private static final long ITEMS = 3_000;
    private static final long SLEEP_MICROS = 2_000;

    @TempDir
    Path dir;

    @Test
    void shouldRestartTheGroupOfALostSshHostOnTheSpareHost() throws Exception {
        SshServer.assumeInstalled();
        int id = (int) (ProcessHandle.current().pid() % 200) + 20;
        String net = "10.219." + id;
        String bridge = "ffsbr" + id;
        List<String> namespaces = List.of("ffsh" + id + "a", "ffsh" + id + "s");
        ExecutorService launcherThread = Executors.newSingleThreadExecutor();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try {
            Assumptions.assumeTrue(
                    sh("ip link add " + bridge + " type bridge && ip addr add " + net + ".1/24 dev " + bridge
                            + " && ip link set " + bridge + " up"),
                    "skipped: cannot create a bridge (needs root and CAP_NET_ADMIN)");
            for (int i = 0; i < namespaces.size(); i++) {
                String ns = namespaces.get(i);
                String veth = "ffsv" + id + (char) ('a' + i);
                Assumptions.assumeTrue(
                        sh("ip netns add " + ns + " && ip link add " + veth + " type veth peer name eth0 netns " + ns
                                + " && ip link set " + veth + " master " + bridge + " up"
                                + " && ip -n " + ns + " addr add " + net + "." + (i + 2) + "/24 dev eth0"
                                + " && ip -n " + ns + " link set eth0 up && ip -n " + ns + " link set lo up"),
                        "skipped: cannot create network namespace " + ns);
            }
            int sshPort = Launcher.freePort();
            try (SshServer a = SshServer.start(
                            Files.createDirectory(dir.resolve("a")), namespaces.get(0), net + ".2", sshPort);
                    SshServer s = SshServer.start(
                            Files.createDirectory(dir.resolve("s")),
                            namespaces.get(1),
                            net + ".3",
                            sshPort,
                            a.clientKey())) {
                Path config = Files.writeString(
                        dir.resolve("app.json"),
                        "{\"checkpoints\": {\"directory\": \"ckpt\", \"intervalMs\": 200,"
                                + " \"restart\": {\"attempts\": 2, \"delayMs\": 300, \"spareHosts\": [\"" + net
                                + ".3\"]}},\n \"groups\": [\n"
                                + "  {\"name\": \"A\", \"endpoint\": \"" + net + ".1:" + Launcher.freePort() + "\"},\n"
                                + "  {\"name\": \"B\", \"endpoint\": \"" + net + ".2:9002\"},\n"
                                + "  {\"name\": \"C\", \"endpoint\": \"" + net + ".1:" + Launcher.freePort() + "\"}\n"
                                + "]}\n");
                List<String> options = new ArrayList<>(List.of(
                        "run",
                        "-c",
                        config.toString(),
                        "--timeout",
                        "120s",
                        "--no-status",
                        "--no-group-check",
                        "--no-cds",
                        "--grace",
                        "2s"));
                // One port and one client key serve both servers, so the run's ssh options reach the spare too.
                assertThat(s.directOptions())
                        .isEqualTo(a.directOptions().stream()
                                .map(o -> o.replace(
                                        a.clientKey().toString(), s.clientKey().toString()))
                                .toList());
                options.addAll(a.directOptions());
                List<String> command = new ArrayList<>(Launcher.javaCommand());
                command.addAll(
                        List.of(CheckpointedSumApp.class.getName(), Long.toString(ITEMS), Long.toString(SLEEP_MICROS)));
                String[] args = Launcher.args(options, command);
                Future<Integer> code = launcherThread.submit(
                        () -> Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true)));
                awaitCheckpoint(dir.resolve("ckpt"), 2, code, out, err);
                loseHost(namespaces.get(0));
                int exit = code.get(100, TimeUnit.SECONDS);

                String report = "exit " + exit + "\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
                assertThat(exit).as(report).isZero();
                assertThat(err.toString())
                        .as(report)
                        .contains("ff-launcher: group B's host " + net + ".2 is unreachable (`true` there exited 255")
                        .contains("restarting it on spare " + net + ".3")
                        .contains("B (ssh " + net + ".3, pid")
                        .contains("ff-launcher: every group exited 0");
                assertThat(out.toString()).as(report).contains("[C] sum=" + sumOfSquares(ITEMS) + " count=" + ITEMS);
            }
        } finally {
            launcherThread.shutdownNow();
            Launcher.killAll(Launcher.pidsIn(err.toString()));
            RemoteProcesses.kill("DFF_Config=" + dir.toAbsolutePath());
            for (String ns : namespaces) {
                sh("ip netns del " + ns);
            }
            sh("ip link del " + bridge);
        }
    }

    private static void awaitCheckpoint(Path store, long id, Future<Integer> code, StringWriter out, StringWriter err)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (GroupCheckpoints.of(store, 3, null, List.of("A", "B", "C")).newestComplete() < id) {
            assertThat(code.isDone())
                    .as("the run ended before B's host was lost: " + out + err)
                    .isFalse();
            assertThat(System.nanoTime() - deadline)
                    .as("no checkpoint complete in every group: " + out + err)
                    .isNegative();
            Thread.sleep(50); // polls the store, which has no other signal
        }
    }

    /** The machine dies: every process of its namespace killed, then the namespace and its link deleted. */
    private static void loseHost(String namespace) throws Exception {
        Process pids = new ProcessBuilder("ip", "netns", "pids", namespace).start();
        List<String> inside =
                new String(pids.getInputStream().readAllBytes()).lines().toList();
        assertThat(pids.waitFor(10, TimeUnit.SECONDS)).isTrue();
        for (String pid : inside) {
            ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
        }
        assertThat(sh("ip netns del " + namespace))
                .as("delete namespace " + namespace)
                .isTrue();
    }

    private static long sumOfSquares(long n) {
        return (n - 1) * n * (2 * n - 1) / 6;
    }

    private static boolean sh(String script) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", script + " 2>&1").start();
        try {
            p.getInputStream().readAllBytes();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } finally {
            p.destroyForcibly();
        }
    }
}
