package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.process.RunSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The launcher names the group where a failure started, not the first group to exit or to complain. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FailureOriginLaunchTest {
    @TempDir
    Path dir;

    @Test
    void shouldNameASinkThatExitedAtOnceNotTheGroupThatCouldNotReachIt() throws Exception {
        // C's preCmd ends the shell before the program starts: C exits 0 and never listens
        Path config = config("\"connectTimeoutMs\": 3000", "", "", "\"preCmd\": \"exit 0;\"");
        Launcher.Result result = Launcher.run(Launcher.args(
                List.of("run", "-c", config.toString(), "--timeout", "60s", "--grace", "2s"), Launcher.sumApp("1000")));
        try {
            assertThat(result.code()).as(result.toString()).isEqualTo(RunSession.EXIT_GROUP_FAILED);
            assertThat(result.err())
                    .as(result.toString())
                    .containsPattern("ff-launcher: group C failed first \\(group [AB], the first to exit, says so")
                    .contains("the last lines of group C: (none)");
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldNameTheFrozenGroup() throws Exception {
        Path config = config("\"heartbeatIntervalMs\": 300, \"heartbeatTimeoutMs\": 2000");
        List<String> args = new ArrayList<>(List.of("run", "-c", config.toString(), "--grace", "2s", "--"));
        args.addAll(Launcher.sumApp("1000000", "-1", "10000"));
        try (LauncherProcess launcher = new LauncherProcess(args)) {
            List<Long> pids = Launcher.pidsIn(launcher.awaitLine(l -> l.contains("started 3 of 3 groups"), 30));
            launcher.awaitLine(l -> l.contains("all groups connected"), 30);
            long frozen = pids.get(1);
            signal("STOP", frozen);
            try {
                assertThat(launcher.process().waitFor(60, TimeUnit.SECONDS))
                        .as(launcher.output())
                        .isTrue();
            } finally {
                signal("CONT", frozen);
            }
            assertThat(launcher.process().exitValue()).as(launcher.output()).isEqualTo(RunSession.EXIT_GROUP_FAILED);
            assertThat(launcher.err()).as(launcher.output()).contains("ff-launcher: group B failed first");
        }
    }

    /** {@link Launcher#config} with {@code topLevel} keys added. */
    private Path config(String topLevel, String... extraPerGroup) throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1", extraPerGroup);
        Files.writeString(config, Files.readString(config).replaceFirst("\\{", "{" + topLevel + ","));
        return config;
    }

    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
}
