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
import org.fastflowj.launcher.process.RunSession;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host lost for real: {@code CheckpointedSumApp} with A and C on this machine and B in network namespace
 * {@code b}; once checkpoints are complete, namespace {@code b} is deleted and B's process killed, as a
 * machine that dies. The launcher must find B's host gone and restart B in the spare namespace {@code s},
 * at the spare's address, every group from the last checkpoint, and the run must end with every item
 * summed once. Without a usable spare it must fail at once, naming the group and its host. Needs root and
 * iproute2; skipped otherwise, saying so.
 *
 * <pre>
 *   this machine: A, C at 10.218.x.1 ──┬── veth ── ns b: 10.217.x.2 (B; deleted mid-run)
 *                                      └── veth ── ns s: 10.218.x.2 (spare)
 * </pre>
 *
 * A and C listen on the spare link's address, which outlives namespace {@code b}; each namespace reaches
 * it through its default route.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SpareHostLaunchTest {
    private static final long ITEMS = 3_000;
    /** A's pause per item: the run lasts about 6 s, long enough for checkpoints and the loss. */
    private static final long SLEEP_MICROS = 2_000;

    @TempDir
    Path dir;

    @Test
    void shouldRestartTheGroupOfALostNamespaceInTheSpareAndSumEveryItemOnce() throws Exception {
        try (Namespaces ns = Namespaces.create("m", true)) {
            String spares = "[{\"host\": \"netns:" + ns.spare() + "\", \"address\": \"" + ns.spareAddress() + "\"}]";
            Run run = runAndLoseB(ns, spares);
            try {
                assertThat(run.code()).as(run.report()).isZero();
                assertThat(run.err())
                        .as(run.report())
                        .contains("ff-launcher: group B's host netns:" + ns.b() + " is unreachable (no network"
                                + " namespace '" + ns.b() + "' on this machine); restarting it on spare netns:"
                                + ns.spare())
                        .contains("B (netns " + ns.spare() + ", pid")
                        .contains("ff-launcher: group B: ended 0 on spare netns:" + ns.spare())
                        .containsPattern("ff-launcher: every group restarted in \\d+\\.\\d\\d s")
                        .contains("ff-launcher: every group exited 0");
                assertThat(count(run.err(), "ff-launcher: all groups connected"))
                        .as(run.report())
                        .isEqualTo(2);
                assertThat(run.out()).as(run.report()).contains("[C] sum=" + sumOfSquares(ITEMS) + " count=" + ITEMS);
                assertThat(Files.list(dir).map(p -> p.getFileName().toString()))
                        .as("the config of the moved groups is gone with the run")
                        .noneMatch(name -> name.contains(".spares-"));
            } finally {
                Launcher.killAll(run.pids());
            }
        }
    }

    @Test
    void shouldFailNamingTheGroupAndItsHostWhenNoSpareIsUsable() throws Exception {
        try (Namespaces ns = Namespaces.create("n", false)) {
            String spares = "[{\"host\": \"netns:" + ns.spare() + "\", \"address\": \"" + ns.spareAddress() + "\"}]";
            Run run = runAndLoseB(ns, spares);
            try {
                assertThat(run.code()).as(run.report()).isEqualTo(RunSession.EXIT_GROUP_FAILED);
                assertThat(run.err())
                        .as(run.report())
                        .contains("ff-launcher: spare host netns:" + ns.spare() + " is unreachable too (no network"
                                + " namespace '" + ns.spare() + "' on this machine); passed over")
                        .contains("ff-launcher: group B's host netns:" + ns.b() + " is unreachable (no network"
                                + " namespace '" + ns.b() + "' on this machine) and no spare host is left to"
                                + " restart it on; the run cannot go on")
                        .doesNotContain("every group restarted");
                assertThat(run.pids()).hasSize(3).allMatch(pid -> ProcessHandle.of(pid)
                        .map(p -> !p.isAlive())
                        .orElse(true));
            } finally {
                Launcher.killAll(run.pids());
            }
        }
    }

    private record Run(int code, String out, String err) {
        List<Long> pids() {
            return Launcher.pidsIn(err);
        }

        String report() {
            return "exit " + code + "\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
        }
    }

    /** Runs the launcher; once a checkpoint is complete in every group, B's namespace is deleted and B killed. */
    private Run runAndLoseB(Namespaces ns, String spares) throws Exception {
        Path store = dir.resolve("ckpt");
        String json = "{\"heartbeatIntervalMs\": 300, \"heartbeatTimeoutMs\": 2000,\n"
                + " \"checkpoints\": {\"directory\": \"ckpt\", \"intervalMs\": 200,"
                + " \"restart\": {\"attempts\": 2, \"delayMs\": 300, \"spareHosts\": " + spares + "}},\n"
                + " \"groups\": [\n"
                + "  {\"name\": \"A\", \"endpoint\": \"" + ns.spareLink() + ".1:" + Launcher.freePort() + "\"},\n"
                + "  {\"name\": \"B\", \"endpoint\": \"" + ns.bAddress() + ":9002\", \"host\": \"netns:" + ns.b()
                + "\"},\n"
                + "  {\"name\": \"C\", \"endpoint\": \"" + ns.spareLink() + ".1:" + Launcher.freePort() + "\"}\n"
                + "]}\n";
        Path config = Files.writeString(dir.resolve("app.json"), json);
        List<String> command = new ArrayList<>(Launcher.javaCommand());
        command.addAll(List.of(CheckpointedSumApp.class.getName(), Long.toString(ITEMS), Long.toString(SLEEP_MICROS)));
        String[] args = Launcher.args(
                List.of(
                        "run",
                        "-c",
                        config.toString(),
                        "--timeout",
                        "120s",
                        "--no-status",
                        "--no-group-check",
                        "--no-cds",
                        "--grace",
                        "2s"),
                command);
        ExecutorService launcherThread = Executors.newSingleThreadExecutor();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try {
            Future<Integer> code = launcherThread.submit(
                    () -> Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (GroupCheckpoints.of(store, 3, null, List.of("A", "B", "C")).newestComplete() < 2) {
                assertThat(code.isDone())
                        .as("the run ended before B was lost: " + out + err)
                        .isFalse();
                assertThat(System.nanoTime() - deadline)
                        .as("no checkpoint complete in every group: " + out + err)
                        .isNegative();
                Thread.sleep(50); // polls the store, which has no other signal
            }
            ns.loseB();
            return new Run(code.get(100, TimeUnit.SECONDS), out.toString(), err.toString());
        } finally {
            launcherThread.shutdownNow();
            Launcher.killAll(Launcher.pidsIn(err.toString())); // also when the launcher never returned
        }
    }

    private static long sumOfSquares(long n) {
        return (n - 1) * n * (2 * n - 1) / 6;
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }

    /**
     * Namespace {@code b} at {@code bLink}.2 and, if {@code withSpare}, namespace {@code spare} at
     * {@code spareLink}.2, each joined to this machine by a veth pair whose end here is {@code .1}; the
     * end of the spare's pair is made in any case, as A and C listen on it. Named after a test's tag and
     * this JVM's pid; all deleted on close.
     */
    private record Namespaces(String b, String spare, String vethB, String vethS, String bLink, String spareLink)
            implements AutoCloseable {
        static Namespaces create(String tag, boolean withSpare) throws Exception {
            int id = (int) (ProcessHandle.current().pid() % 200) + 20;
            String name = "ffs" + tag + id;
            Namespaces ns =
                    new Namespaces(name + "b", name + "s", name + "vb", name + "vs", "10.217." + id, "10.218." + id);
            // Without the spare namespace, the spare link's far end stays here, in a namespace of its own.
            String spareNs = withSpare ? ns.spare : ns.spare + "x";
            boolean made = sh("ip netns add " + ns.b + " && ip netns add " + spareNs + " && "
                    + link(ns.b, ns.vethB, ns.bLink) + " && " + link(spareNs, ns.vethS, ns.spareLink));
            if (!made) {
                ns.close();
                Assumptions.abort("skipped: cannot create network namespaces (needs root and iproute2)");
            }
            return ns;
        }

        private static String link(String namespace, String veth, String net) {
            String far = veth + "p";
            return "ip link add " + veth + " type veth peer name " + far + " netns " + namespace
                    + " && ip addr add " + net + ".1/24 dev " + veth + " && ip link set " + veth + " up"
                    + " && ip -n " + namespace + " addr add " + net + ".2/24 dev " + far
                    + " && ip -n " + namespace + " link set " + far + " up && ip -n " + namespace + " link set lo up"
                    + " && ip -n " + namespace + " route add default via " + net + ".1";
        }

        String bAddress() {
            return bLink + ".2";
        }

        String spareAddress() {
            return spareLink + ".2";
        }

        /** The machine of namespace b dies: the namespace is gone, and so is every process in it. */
        void loseB() throws Exception {
            Process pids = new ProcessBuilder("ip", "netns", "pids", b).start();
            List<String> inside =
                    new String(pids.getInputStream().readAllBytes()).lines().toList();
            assertThat(pids.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(sh("ip netns del " + b)).as("delete namespace " + b).isTrue();
            for (String pid : inside) {
                ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(ProcessHandle::destroyForcibly);
            }
        }

        @Override
        public void close() {
            try {
                sh("ip netns del " + b + "; ip netns del " + spare + "; ip netns del " + spare + "x; ip link del "
                        + vethB + "; ip link del " + vethS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                throw new IllegalStateException("could not delete namespaces " + b + " and " + spare, e);
            }
        }
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
