package org.fastflowj.launcher.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.CheckpointStart;
import org.fastflowj.dist.ControlLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The remote wrapper run by a local {@code sh}, standing in for the shell an sshd starts. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RemoteScriptTest {
    @Test
    void shouldPassTheGroupsExitCodeThrough() throws Exception {
        Process sh = start(RemoteScript.wrap("/", "echo here; exit 7", Duration.ofSeconds(1)));
        try {
            assertThat(firstLine(sh)).isEqualTo("here");
            assertThat(sh.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(sh.exitValue()).isEqualTo(7);
        } finally {
            destroyTree(sh);
        }
    }

    @Test
    void shouldStopTheWholeGroupTreeWhenItsInputEnds() throws Exception {
        // The group starts a child of its own and waits: both must go when the launcher closes the input.
        Process sh = start(RemoteScript.wrap(null, "sleep 1000 & echo $!; wait", Duration.ofSeconds(1)));
        long child = Long.parseLong(firstLine(sh).strip());
        try {
            sh.getOutputStream().close();
            assertThat(sh.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(sh.exitValue()).isEqualTo(128 + 15);
            ProcessHandle.of(child).ifPresent(p -> assertThat(p.onExit()).succeedsWithin(Duration.ofSeconds(10)));
        } finally {
            destroyTree(sh);
            ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void shouldExportTheSecretFromTheFirstLineOfItsInputAndKeepWatchingTheRest() throws Exception {
        String secret = RunSecret.generate();
        Process sh = start(
                RemoteScript.wrap(null, "echo \"${#DFF_Secret} $DFF_Secret\"; sleep 1000", Duration.ofSeconds(1)),
                secret);
        try {
            assertThat(firstLine(sh)).isEqualTo("43 " + secret);
            assertThat(RemoteScript.wrap(null, "true", Duration.ofSeconds(1))).doesNotContain(secret);
            sh.getOutputStream().close();
            assertThat(sh.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(sh.exitValue()).isEqualTo(128 + 15);
        } finally {
            destroyTree(sh);
        }
    }

    @Test
    void shouldLeaveDffSecretUnsetWhenTheFirstLineIsEmpty() throws Exception {
        Process sh = start(RemoteScript.wrap(null, "echo \"${DFF_Secret-unset}\"", Duration.ofSeconds(1)), "");
        try {
            assertThat(firstLine(sh)).isEqualTo("unset");
            assertThat(sh.waitFor(20, TimeUnit.SECONDS)).isTrue();
        } finally {
            destroyTree(sh);
        }
    }

    @Test
    void shouldExportWhereTheCheckpointsStartOnlyWhenTheLauncherGivesIt() throws Exception {
        String script = RemoteScript.wrap(
                null, "echo \"${DFF_Resume-unset} ${DFF_CheckpointsAfter-unset}\"", Duration.ofSeconds(1));
        Process resumed = start(script, "", new CheckpointStart(7, 9));
        Process first = start(script, "", new CheckpointStart(-1, 4));
        Process none = start(script, "", null);
        try {
            assertThat(firstLine(resumed)).isEqualTo("7 9");
            assertThat(firstLine(first)).isEqualTo("unset 4");
            assertThat(firstLine(none)).isEqualTo("unset unset");
            assertThat(resumed.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(resumed.exitValue()).isZero();
        } finally {
            destroyTree(resumed);
            destroyTree(first);
            destroyTree(none);
        }
    }

    /** Starts the script as an sshd would, and writes the launcher's first lines: no secret, a key, no resume. */
    private static Process start(String script) throws Exception {
        return start(script, "");
    }

    private static Process start(String script, String secret) throws Exception {
        return start(script, secret, null);
    }

    private static Process start(String script, String secret, CheckpointStart checkpoints) throws Exception {
        Process sh = new ProcessBuilder(List.of("/bin/sh", "-c", script)).start();
        sh.getOutputStream()
                .write(RemoteScript.input(secret.isEmpty() ? null : secret, ControlLine.newKey(), checkpoints)
                        .getBytes(StandardCharsets.UTF_8));
        sh.getOutputStream().flush();
        return sh;
    }

    private static String firstLine(Process p) throws Exception {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
    }

    private static void destroyTree(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }
}
