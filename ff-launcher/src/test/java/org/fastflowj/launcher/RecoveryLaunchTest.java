package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.apps.AllToAllApp;
import org.fastflowj.launcher.apps.MasterWorkerApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recoverable farm's worker group, or a recoverable all-to-all's R-Worker group, that dies or freezes is
 * shown as {@code lost}, and the run goes on to exit 0 with every task answered once.
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

    private void assertLost(String signal, String topLevel, Class<?> app, String expected) throws Exception {
        String why = signal.equals("STOP") ? "group B is lost (group A lost it)" : "group B is lost (";
        Path config = Launcher.config(dir, "127.0.0.1");
        Files.writeString(config, Files.readString(config).replaceFirst("\\{", "{" + topLevel));
        List<String> args = new ArrayList<>(List.of("run", "-c", config.toString(), "--grace", "2s", "--"));
        args.addAll(Launcher.javaCommand());
        args.addAll(List.of(app.getName(), Integer.toString(TASKS), "2000"));
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
