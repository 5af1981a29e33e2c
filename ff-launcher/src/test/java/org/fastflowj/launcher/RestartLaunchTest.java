package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.checkpoint.Checkpoint;
import org.fastflowj.core.checkpoint.GroupCheckpoints;
import org.fastflowj.launcher.apps.RestartingApp;
import org.fastflowj.launcher.process.RunSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code checkpoints} in the config, a failed group restarts every group from the newest checkpoint
 * complete in all of them ({@code DFF_Resume}), as
 * often as {@code checkpoints.restart} allows; without, the first failure ends the run.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RestartLaunchTest {
    private static final String CHECKPOINTS =
            "\"checkpoints\": {\"directory\": \"ckpt\", \"restart\": {\"attempts\": 2, \"delayMs\": 100}},";

    @TempDir
    Path dir;

    @Test
    void shouldRestartEveryGroupOnceAndExit0WhenTheResumedGroupsSucceed() throws Exception {
        Path logs = dir.resolve("logs");
        save(5, "G1", "G2"); // a checkpoint complete in both groups
        save(6, "G1"); // a part of one
        save(7, "G1", "G2"); // complete, but G2's part is damaged: never restored
        Path damaged = dir.resolve("ckpt").resolve("G2").resolve("chk-0000000000000000007.ffcp");
        byte[] bytes = Files.readAllBytes(damaged);
        bytes[bytes.length - 1] ^= 1;
        Files.write(damaged, bytes);
        Launcher.Result result = run(CHECKPOINTS, "exit3-once", "--log-dir", logs.toString());
        try {
            assertThat(result.code()).as(result.toString()).isZero();
            assertThat(result.err())
                    .as(result.toString())
                    .contains("ff-launcher: group G2 failed: exit code 3 (a JVM error such as out of memory halted the"
                            + " group); restarting every group from the last completed checkpoint (restart 1 of 2,"
                            + " in 100 ms)")
                    .containsPattern("ff-launcher: every group restarted in \\d+\\.\\d\\d s")
                    .contains("every group exited 0")
                    .doesNotContain("restart 2 of 2", "failed first");
            // every attempt numbers after the highest checkpoint; a restart resumes from the newest one complete
            // and whole in every group
            assertAttempts("G1", "DFF_Resume=null DFF_CheckpointsAfter=7", "DFF_Resume=5 DFF_CheckpointsAfter=7");
            assertAttempts("G2", "DFF_Resume=null DFF_CheckpointsAfter=7", "DFF_Resume=5 DFF_CheckpointsAfter=7");
            assertThat(result.err()).contains("ff-launcher: every group resumes from checkpoint 5");
            assertThat(Files.readString(logs.resolve("G1.log")))
                    .contains("G1 attempt 1 up", "G1 attempt 2 up")
                    .containsPattern("(?m)^ff-launcher: attempt 2: restart 1 of 2 after group G2 failed");
            assertThat(result.pids()).hasSize(4).allSatisfy(pid -> assertThat(
                            ProcessHandle.of(pid).filter(ProcessHandle::isAlive))
                    .isEmpty());
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldFailNamingTheGroupAndTheRestartsOnceTheyAreUsedUp() throws Exception {
        Launcher.Result result = run(CHECKPOINTS, "exit1-always");
        try {
            assertThat(result.code()).as(result.toString()).isEqualTo(RunSession.EXIT_GROUP_FAILED);
            assertThat(result.err())
                    .as(result.toString())
                    .contains("(restart 1 of 2, in 100 ms)", "(restart 2 of 2, in 100 ms)")
                    .contains("ff-launcher: group G2 failed first: exit code 1")
                    .contains("ff-launcher: no restart left: the run failed after 2 restarts (at most 2)")
                    .contains("the last lines of group G2:")
                    .doesNotContain("restart 3");
            String first = "DFF_Resume=null DFF_CheckpointsAfter=0";
            String again = "DFF_Resume=0 DFF_CheckpointsAfter=0"; // no checkpoint in the store: afresh
            assertAttempts("G2", first, again, again);
            assertAttempts("G1", first, again, again);
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldEndTheRunAtTheFirstFailureWithoutCheckpoints() throws Exception {
        Launcher.Result result = run("", "exit3-once");
        try {
            assertThat(result.code()).as(result.toString()).isEqualTo(RunSession.EXIT_GROUP_FAILED);
            assertThat(result.err())
                    .as(result.toString())
                    .contains("ff-launcher: group G2 failed first: exit code 3", "stopping the other groups")
                    .doesNotContain("restart");
            assertAttempts("G1", "DFF_Resume=null DFF_CheckpointsAfter=null");
            assertAttempts("G2", "DFF_Resume=null DFF_CheckpointsAfter=null");
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldRestartEveryGroupWhenOneIsKilledFromOutside() throws Exception {
        Path pidFile = dir.resolve("G2.pid");
        CompletableFuture<Void> killer = CompletableFuture.runAsync(() -> {
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.exists(pidFile) || Files.readString(pidFile).isEmpty()) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("G2 wrote no pid file");
                    }
                    Thread.sleep(50);
                }
                long pid = Long.parseLong(Files.readString(pidFile).strip());
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        Launcher.Result result = run(CHECKPOINTS, "wait-for-kill");
        try {
            killer.get(10, TimeUnit.SECONDS);
            assertThat(result.code()).as(result.toString()).isZero();
            assertThat(result.err())
                    .as(result.toString())
                    .contains("ff-launcher: group G2 failed: exit code 137 (signal 9, SIGKILL); restarting every"
                            + " group from the last completed checkpoint (restart 1 of 2, in 100 ms)")
                    .containsPattern("ff-launcher: every group restarted in \\d+\\.\\d\\d s")
                    .contains("every group exited 0");
            assertAttempts("G1", "DFF_Resume=null DFF_CheckpointsAfter=0", "DFF_Resume=0 DFF_CheckpointsAfter=0");
            assertAttempts("G2", "DFF_Resume=null DFF_CheckpointsAfter=0", "DFF_Resume=0 DFF_CheckpointsAfter=0");
            assertThat(result.err()).contains("no checkpoint is complete in every group: every group starts afresh");
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    @Test
    void shouldStillEndWithTheTimeoutWhileWaitingToRestart() throws Exception {
        String slowRestart =
                "\"checkpoints\": {\"directory\": \"ckpt\", \"restart\": {\"attempts\": 2, \"delayMs\": 60000}},";
        Launcher.Result result = run(slowRestart, "exit3-once", "--timeout", "4s");
        try {
            assertThat(result.code()).as(result.toString()).isEqualTo(RunSession.EXIT_TIMEOUT);
            assertThat(result.err())
                    .as(result.toString())
                    .contains("(restart 1 of 2, in 60 s)", "timeout: the run took longer than 4 s")
                    .doesNotContain("every group restarted");
            assertAttempts("G2", "DFF_Resume=null DFF_CheckpointsAfter=0");
        } finally {
            Launcher.killAll(result.pids());
        }
    }

    /** Runs groups G1 and G2 of {@link RestartingApp}, G2 failing as {@code how} says. */
    private Launcher.Result run(String topLevel, String how, String... options) throws Exception {
        String json = "{" + topLevel + "\n  \"groups\": [\n"
                + "    {\"name\": \"G1\", \"endpoint\": \"127.0.0.1:" + Launcher.freePort() + "\"},\n"
                + "    {\"name\": \"G2\", \"endpoint\": \"127.0.0.1:" + Launcher.freePort() + "\"}\n  ]\n}\n";
        Path config = Files.writeString(dir.resolve("app.json"), json);
        List<String> launcher = new ArrayList<>(
                List.of("run", "-c", config.toString(), "--no-group-check", "--no-cds", "--grace", "2s"));
        launcher.addAll(List.of(options));
        if (!launcher.contains("--timeout")) {
            launcher.addAll(List.of("--timeout", "90s"));
        }
        List<String> command = new ArrayList<>(Launcher.javaCommand());
        command.addAll(List.of(RestartingApp.class.getName(), dir.toString(), "G2", how));
        return Launcher.run(Launcher.args(launcher, command));
    }

    /** An empty part of checkpoint {@code id} of each of {@code groups}, in the config's store. */
    private void save(long id, String... groups) throws Exception {
        for (String g : groups) {
            GroupCheckpoints.of(dir.resolve("ckpt"), 3, g, List.of("G1", "G2"))
                    .own()
                    .save(new Checkpoint(id, Map.of()));
        }
    }

    private void assertAttempts(String group, String... resumeValues) throws Exception {
        List<String> seen = new ArrayList<>();
        for (int attempt = 1; Files.exists(dir.resolve(group + ".attempt" + attempt)); attempt++) {
            seen.add(Files.readString(dir.resolve(group + ".attempt" + attempt)));
        }
        assertThat(seen).as(group + "'s starts").containsExactly(resumeValues);
    }
}
