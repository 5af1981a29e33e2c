package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
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
        assumeFalse(
                sigintIgnoredHere(),
                "SIGINT is ignored in this test's environment (a build started in the background of a"
                        + " non-interactive shell): a launcher started from here inherits that and rightly"
                        + " ignores Ctrl-C, as background jobs do");
        assertStopsEverything("INT", 130);
    }

    /**
     * Whether this JVM was started with SIGINT ignored (Linux: bit 1 of {@code SigIgn} in {@code
     * /proc/self/status}); a child process inherits the disposition, and a JVM keeps such a signal ignored.
     */
    static boolean sigintIgnoredHere() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (new BigInteger(line.substring("SigIgn:".length()).trim(), 16).longValue() & (1L << 1)) != 0;
            }
        }
        return false;
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
