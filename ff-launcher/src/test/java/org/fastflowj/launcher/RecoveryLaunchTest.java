package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.apps.AllToAllApp;
import org.fastflowj.launcher.apps.MacroDataFlowApp;
import org.fastflowj.launcher.apps.MasterWorkerApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recoverable farm's worker group, a recoverable all-to-all's R-Worker group, or a worker group of a
 * macro data-flow, that dies or freezes is shown as {@code lost}, and the run goes on to exit 0 with every
 * task answered once (the product the sequential one). Killing the macro data-flow's scheduler's group
 * fails the run.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class RecoveryLaunchTest {
    private static final int TASKS = 1200;

    @TempDir
    Path dir;

    @Test
    void shouldShowAKilledWorkerGroupAsLostAndExit0() throws Exception {
        assertLost("KILL", "", MasterWorkerApp.class, MasterWorkerApp.expected(TASKS));
    }

    @Test
    void shouldKillAFrozenWorkerGroupItsPeersLostAndExit0() throws Exception {
        assertLost(
                "STOP",
                "\"heartbeatIntervalMs\": 300, \"heartbeatTimeoutMs\": 2000,",
                MasterWorkerApp.class,
                MasterWorkerApp.expected(TASKS));
    }

    @Test
    void shouldShowAKilledRWorkerGroupOfAnAllToAllAsLostAndExit0() throws Exception {
        assertLost("KILL", "", AllToAllApp.class, AllToAllApp.expected(TASKS));
    }

    @Test
    void shouldShowAKilledWorkerGroupOfAMacroDataFlowAsLostAndExit0() throws Exception {
        // 512 tasks of 3 ms on three workers: group B is killed with its tasks in hand, which A and C compute again
        assertLost("KILL", "", MacroDataFlowApp.class, List.of("8", "3000"), MacroDataFlowApp.expected(8));
    }

    @Test
    void shouldFailTheRunWhenTheSchedulersGroupOfAMacroDataFlowIsKilled() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        List<String> args = new ArrayList<>(List.of("run", "-c", config.toString(), "--grace", "2s", "--"));
        args.addAll(Launcher.javaCommand());
        args.addAll(List.of(MacroDataFlowApp.class.getName(), "8", "3000"));
        List<Long> pids = List.of();
        try (LauncherProcess launcher = new LauncherProcess(args)) {
            pids = Launcher.pidsIn(launcher.awaitLine(l -> l.contains("started 3 of 3 groups"), 60));
            launcher.awaitLine(l -> l.contains("progress"), 90);
            signal("KILL", pids.get(0)); // group A: the generator, the scheduler and the tasks' inputs

            assertThat(launcher.process().waitFor(90, TimeUnit.SECONDS))
                    .as(launcher.output())
                    .isTrue();
            assertThat(launcher.process().exitValue()).as(launcher.output()).isEqualTo(1);
            assertThat(launcher.err())
                    .as(launcher.output())
                    .contains("group A failed first")
                    .doesNotContain("every group exited 0");
            assertThat(launcher.output()).doesNotContain("equal=");
        } finally {
            Launcher.killAll(pids);
        }
    }

    private void assertLost(String signal, String topLevel, Class<?> app, String expected) throws Exception {
        assertLost(signal, topLevel, app, List.of(Integer.toString(TASKS), "2000"), expected);
    }

    private void assertLost(String signal, String topLevel, Class<?> app, List<String> appArgs, String expected)
            throws Exception {
        String why = signal.equals("STOP") ? "group B is lost (group A lost it)" : "group B is lost (";
        Path config = Launcher.config(dir, "127.0.0.1");
        Files.writeString(config, Files.readString(config).replaceFirst("\\{", "{" + topLevel));
        List<String> args = new ArrayList<>(List.of("run", "-c", config.toString(), "--grace", "2s", "--"));
        args.addAll(Launcher.javaCommand());
        args.add(app.getName());
        args.addAll(appArgs);
        List<Long> pids = List.of();
        try (LauncherProcess launcher = new LauncherProcess(args)) {
            pids = Launcher.pidsIn(launcher.awaitLine(l -> l.contains("started 3 of 3 groups"), 60));
            launcher.awaitLine(l -> l.contains("progress"), 90);
            signal(signal, pids.get(1)); // group B

            assertThat(launcher.process().waitFor(90, TimeUnit.SECONDS))
                    .as(launcher.output())
                    .isTrue();
            assertThat(launcher.process().exitValue()).as(launcher.output()).isZero();
            assertThat(launcher.err())
                    .as(launcher.output())
                    .contains("ff-launcher: " + why)
                    .contains("every group exited 0 except B, lost")
                    .doesNotContain("failed first");
            assertThat(launcher.output()).contains(expected);
        } finally {
            Launcher.killAll(pids);
        }
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
}
