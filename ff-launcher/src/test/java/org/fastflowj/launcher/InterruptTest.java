package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C (SIGINT) and SIGTERM to the launcher stop every group and leave no process behind. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class InterruptTest {
    @TempDir
    Path dir;

    @Test
    void shouldStopEveryGroupAndExit130OnSigint() throws Exception {
        assertStopsEverything("INT", 130);
    }

    @Test
    void shouldStopEveryGroupOnSigterm() throws Exception {
        assertStopsEverything("TERM", 143);
    }

    private void assertStopsEverything(String signal, int expectedCode) throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        List<String> args = new ArrayList<>(List.of("run", "-c", config.toString(), "--grace", "2s", "--"));
        args.addAll(Launcher.sumApp("1000000", "-1", "10000"));
        try (LauncherProcess launcher = new LauncherProcess(args)) {
            String started = launcher.awaitLine(l -> l.contains("started 3 of 3 groups"), 30);
            List<Long> pids = Launcher.pidsIn(started);
            assertThat(pids).hasSize(3);
            launcher.awaitLine(l -> l.contains("[C] C up"), 30);
            Process kill = new ProcessBuilder(
                            "kill",
                            "-" + signal,
                            Long.toString(launcher.process().pid()))
                    .inheritIO()
                    .start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(launcher.process().waitFor(30, TimeUnit.SECONDS))
                    .as(launcher.output())
                    .isTrue();
            assertThat(launcher.process().exitValue()).as(launcher.output()).isEqualTo(expectedCode);
            assertThat(launcher.err()).contains("interrupted; stopping every group", "stopped group B");
            assertThat(pids).allSatisfy(pid -> assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive))
                    .isEmpty());
        }
    }
}
