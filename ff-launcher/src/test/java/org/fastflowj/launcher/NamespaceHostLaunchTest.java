package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fastflowj.launcher.process.RunSession;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code "host": "netns:NAME"} for real: two network namespaces made by the test, joined by one veth pair,
 * and the three groups of {@code SumApp} started in them by the launcher with {@code ip netns exec}: A and C
 * in the first, B in the second, so every item crosses the pair twice. Each group listens on its
 * namespace's own address, which no other namespace has, so a group that ran anywhere else could not
 * start. Needs root and iproute2; skipped otherwise, saying so.
 *
 * <pre>
 *   ns a: 10.214.x.1 (A, C) ── veth ── ns b: 10.214.x.2 (B)
 * </pre>
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class NamespaceHostLaunchTest {
    private static final Pattern SECRET = Pattern.compile("\\[(\\w)] \\1 secret: (.+)");

    @TempDir
    Path dir;

    @Test
    void shouldRunGroupsInTwoNamespacesThroughIpNetnsExec() throws Exception {
        try (JoinedNamespaces ns = JoinedNamespaces.create("x", 214)) {
            String a = ns.a();
            String b = ns.b();
            Path config = Files.writeString(dir.resolve("app.json"), sumAppConfig("", ns));

            Launcher.Result result = Launcher.run(Launcher.args(
                    List.of("run", "-c", config.toString(), "--timeout", "100s", "--no-status"),
                    Launcher.sumApp("1000")));
            try {
                assertThat(result.code()).as(result.toString()).isZero();
                assertThat(result.err())
                        .contains("A (netns " + a + ", pid", "B (netns " + b + ", pid", "C (netns " + a + ", pid")
                        .contains("ff-launcher: all groups connected")
                        .contains("ff-launcher: group B: ended 0");
                assertThat(result.out()).contains("[A] A up", "[B] B up", "[C] sum=332833500 count=1000");
                // The run's secret reached every group through ip netns exec, the same one in each.
                Matcher secrets = SECRET.matcher(result.out());
                Set<String> seen = new HashSet<>();
                while (secrets.find()) {
                    seen.add(secrets.group(2));
                }
                assertThat(seen).hasSize(1);
                assertThat(seen.iterator().next()).startsWith("43 chars, sha256 ");
            } finally {
                Launcher.killAll(result.pids());
            }
        }
    }

    @Test
    void shouldStopTheOtherNamespaceGroupsWhenOneFails() throws Exception {
        int id = (int) (ProcessHandle.current().pid() % 200) + 20;
        String a = "fflf" + id + "a";
        try {
            Assumptions.assumeTrue(
                    sh("ip netns add " + a + " && ip -n " + a + " link set lo up"),
                    "skipped: cannot create a network namespace (needs root and iproute2)");
            Path config = dir.resolve("app.json");
            Files.writeString(
                    config,
                    "{\"groups\": [\n"
                            + "  {\"name\": \"A\", \"endpoint\": \"127.0.0.1:9001\", \"host\": \"netns:" + a + "\"},\n"
                            + "  {\"name\": \"B\", \"endpoint\": \"127.0.0.1:9002\", \"host\": \"netns:" + a + "\"},\n"
                            + "  {\"name\": \"C\", \"endpoint\": \"127.0.0.1:9003\", \"host\": \"netns:" + a + "\"}\n"
                            + "]}\n");

            // B throws at item 50: its exit code and exception are the launcher's, as for a local group.
            Launcher.Result result = Launcher.run(Launcher.args(
                    List.of("run", "-c", config.toString(), "--timeout", "100s", "--no-status"),
                    Launcher.sumApp("1000", "50")));
            try {
                assertThat(result.code()).as(result.toString()).isEqualTo(RunSession.EXIT_GROUP_FAILED);
                assertThat(result.err()).contains("ff-launcher: group B failed").contains("square refuses 50");
                // The launcher returns once every group has exited: none is left in the namespace.
                assertThat(result.pids()).hasSize(3).allMatch(pid -> ProcessHandle.of(pid)
                        .map(p -> !p.isAlive())
                        .orElse(true));
            } finally {
                Launcher.killAll(result.pids());
            }
        } finally {
            sh("ip netns del " + a);
        }
    }

    /**
     * A cut cable, for real: once every group is connected and items flow, the veth pair between the two
     * namespaces goes down, so no reset and no close reaches either side, only silence. Every group must
     * notice within its heartbeat time-out and exit non-zero, and the launcher must report the failure and
     * return, instead of the run hanging until its own time-out.
     */
    @Test
    void shouldFailEveryGroupWhenTheLinkBetweenTheNamespacesIsCut() throws Exception {
        try (JoinedNamespaces ns = JoinedNamespaces.create("c", 215)) {
            runAndCut(ns);
        }
    }

    private void runAndCut(JoinedNamespaces ns) throws Exception {
        ExecutorService launcherThread = Executors.newSingleThreadExecutor();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        try {
            Path config = Files.writeString(
                    dir.resolve("app.json"),
                    sumAppConfig("\"heartbeatIntervalMs\": 300, \"heartbeatTimeoutMs\": 2000, ", ns));
            // B works 1 ms per item: 100 000 items would take 100 s, so the run is in full flow at the cut.
            String[] args = Launcher.args(
                    List.of("run", "-c", config.toString(), "--timeout", "100s", "--no-status"),
                    Launcher.sumApp("100000", "-1", "1000"));
            Future<Integer> code = launcherThread.submit(
                    () -> Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true)));

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!err.toString().contains("ff-launcher: all groups connected")) {
                assertThat(code.isDone())
                        .as("the run ended before the cut: " + out + err)
                        .isFalse();
                assertThat(System.nanoTime() - deadline)
                        .as("the groups never connected: " + out + err)
                        .isNegative();
                Thread.sleep(50); // polls the launcher's output, which has no other signal
            }
            assertThat(sh("ip -n " + ns.a() + " link set " + ns.vethA() + " down"))
                    .isTrue();
            long cut = System.nanoTime();

            int exit = code.get(30, TimeUnit.SECONDS); // heartbeat time-out 2 s: far less than the run's 100 s
            long afterCutMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cut);
            String report =
                    "exit " + exit + " after " + afterCutMs + " ms\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
            assertThat(exit).as(report).isEqualTo(RunSession.EXIT_GROUP_FAILED);
            // The first group to notice the silence fails the run and names the peer it lost; the
            // launcher reports it and stops the others (which may be noticing it too).
            assertThat(err.toString())
                    .as(report)
                    .containsPattern("no data or heartbeat from group [ABC] at "
                            + ns.net().replace(".", "\\.") + "\\.[12]:\\d+ for 2000 ms")
                    .doesNotContain("DFF_FAILED", "DFF_CONTROL")
                    .containsPattern("ff-launcher: group [ABC] failed first")
                    .doesNotContain("timed out");
            assertThat(afterCutMs).as(report).isLessThan(20_000);
            assertThat(out.toString()).as(report).doesNotContain("count=100000");
            assertThat(Launcher.pidsIn(err.toString())).hasSize(3).allMatch(pid -> ProcessHandle.of(pid)
                    .map(p -> !p.isAlive())
                    .orElse(true));
        } finally {
            launcherThread.shutdownNow();
            Launcher.killAll(Launcher.pidsIn(err.toString())); // also when the launcher never returned
        }
    }

    /**
     * Namespaces {@code a} and {@code b}, joined by the veth pair {@code vethA}/{@code vethB} at {@code
     * net}.1 and {@code net}.2, named after a test's tag and this JVM's pid; both deleted on close.
     */
    private record JoinedNamespaces(String a, String b, String vethA, String vethB, String net)
            implements AutoCloseable {
        /** Made here, or the test skipped (no root or no iproute2), leaving nothing behind. */
        static JoinedNamespaces create(String tag, int secondOctet) throws Exception {
            int id = (int) (ProcessHandle.current().pid() % 200) + 20;
            String name = "ffl" + tag;
            JoinedNamespaces ns = new JoinedNamespaces(
                    name + id + "a", name + id + "b", name + "v" + id, name + "w" + id, "10." + secondOctet + "." + id);
            boolean made = sh("ip netns add " + ns.a + " && ip netns add " + ns.b + " && ip link add " + ns.vethA
                    + " netns " + ns.a + " type veth peer name " + ns.vethB + " netns " + ns.b
                    + " && ip -n " + ns.a + " addr add " + ns.net + ".1/24 dev " + ns.vethA
                    + " && ip -n " + ns.b + " addr add " + ns.net + ".2/24 dev " + ns.vethB
                    + " && ip -n " + ns.a + " link set " + ns.vethA + " up && ip -n " + ns.b + " link set " + ns.vethB
                    + " up && ip -n " + ns.a + " link set lo up && ip -n " + ns.b + " link set lo up");
            if (!made) {
                ns.close();
                Assumptions.abort("skipped: cannot create network namespaces (needs root and iproute2)");
            }
            return ns;
        }

        @Override
        public void close() {
            try {
                sh("ip netns del " + a + "; ip netns del " + b);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                throw new IllegalStateException("could not delete namespaces " + a + " and " + b, e);
            }
        }
    }

    /**
     * {@code SumApp}'s groups: A and C in namespace {@code ns.a} at {@code ns.net}.1, B in {@code ns.b} at
     * {@code ns.net}.2, after the top-level settings {@code settings} (each followed by a comma). Fresh namespaces:
     * no other process listens on their addresses, so any port is free there.
     */
    private static String sumAppConfig(String settings, JoinedNamespaces ns) {
        return "{" + settings + "\"groups\": [\n"
                + "  {\"name\": \"A\", \"endpoint\": \"" + ns.net() + ".1:9001\", \"host\": \"netns:" + ns.a()
                + "\"},\n"
                + "  {\"name\": \"B\", \"endpoint\": \"" + ns.net() + ".2:9002\", \"host\": \"netns:" + ns.b()
                + "\"},\n"
                + "  {\"name\": \"C\", \"endpoint\": \"" + ns.net() + ".1:9003\", \"host\": \"netns:" + ns.a() + "\"}\n"
                + "]}\n";
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
