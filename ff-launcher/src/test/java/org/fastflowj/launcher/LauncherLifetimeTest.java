package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.process.RunSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Local groups live no longer than their launcher, even one killed with SIGKILL. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LauncherLifetimeTest {
    @TempDir
    Path dir;

    @Test
    void shouldEndEveryLocalGroupWhenTheLauncherIsKilled() throws Exception {
        // B runs under a preCmd shell: the whole process group goes, not only the launcher's child.
        Path config = Launcher.config(dir, "127.0.0.1", "", "\"preCmd\": \"true &&\"");
        List<String> args = new ArrayList<>(List.of("run", "-c", config.toString(), "--grace", "2s", "--"));
        args.addAll(Launcher.sumApp("1000000", "-1", "10000"));
        List<ProcessHandle> groups = new ArrayList<>();
        try (LauncherProcess launcher = new LauncherProcess(args)) {
            List<Long> pids = Launcher.pidsIn(launcher.awaitLine(l -> l.contains("started 3 of 3 groups"), 30));
            launcher.awaitLine(l -> l.contains("[C] C up"), 30);
            launcher.process().descendants().forEach(groups::add);
            assertThat(groups).extracting(ProcessHandle::pid).containsAll(pids);

            launcher.process().toHandle().destroyForcibly(); // kill -9: the launcher can stop nothing

            assertThat(launcher.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
            for (ProcessHandle group : groups) {
                assertThat(group.onExit())
                        .as(
                                "process %d of the run, %s",
                                group.pid(), group.info().commandLine().orElse("?"))
                        .succeedsWithin(Duration.ofSeconds(15));
            }
        } finally {
            groups.forEach(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void shouldStillReportTheGroupsOwnExitCodeAndStopNoWatcherLater() throws Exception {
        Path config = Launcher.config(dir, "127.0.0.1");
        Launcher.Result result = Launcher.run(Launcher.args(
                List.of("run", "-c", config.toString(), "--timeout", "60s", "--grace", "2s"),
                Launcher.sumApp("1000000", "50", "1000")));
        try {
            assertThat(result.code()).as(result.toString()).isEqualTo(RunSession.EXIT_GROUP_FAILED);
            assertThat(result.err()).contains("ff-launcher: group B failed first", "exit code 1");
            assertThat(result.pids()).hasSize(3);
            // The watchers end with their groups (their command line names the config too): nothing is left.
            String ofThisRun = "--DFF_Config=" + config.toAbsolutePath();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!GroupSecrets.commandLinesContaining(ofThisRun).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50); // poll: a process that ends tells nobody but its parent
            }
            assertThat(GroupSecrets.commandLinesContaining(ofThisRun)).isEmpty();
        } finally {
            Launcher.killAll(result.pids());
        }
    }
}
