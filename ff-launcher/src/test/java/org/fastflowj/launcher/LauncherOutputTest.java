package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.apps.LinesApp;
import org.fastflowj.testing.SmallDisk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's output cannot be written: its stdout on a full disk or into a pipe whose reader left
 * after three lines, a group's log file on a full disk. The run stops every group and exits 2 naming the
 * output, as {@code grep} does. Real processes, a real pipe and a real 64 KiB tmpfs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LauncherOutputTest {
    private static final String LINES = "200000";

    @TempDir
    Path dir;

    @Test
    void shouldExit2NamingStdoutWhenTheReaderClosesThePipeEarly() throws Exception {
        Process launcher = start(new ProcessBuilder(launcherCommand())
                .redirectError(dir.resolve("err.txt").toFile()));
        try {
            try (BufferedReader head =
                    new BufferedReader(new InputStreamReader(launcher.getInputStream(), StandardCharsets.UTF_8))) {
                for (int i = 0; i < 3; i++) {
                    assertThat(head.readLine())
                            .as("line %d of the launcher's stdout", i)
                            .isNotNull();
                }
            } // as `| head -3` does: the pipe's only reader is gone
            assertExits2Naming(launcher, "ff-launcher: cannot write to standard output: ");
        } finally {
            destroy(launcher);
        }
    }

    @Test
    void shouldExit2NamingStdoutWhenTheDiskIsFull() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("full"), 64)) {
            assumeTrue(disk.mounted(), disk.why());
            Process launcher = start(new ProcessBuilder(launcherCommand())
                    .redirectOutput(disk.path().resolve("out.txt").toFile())
                    .redirectError(dir.resolve("err.txt").toFile()));
            try {
                assertExits2Naming(launcher, "ff-launcher: cannot write to standard output: No space left on device");
            } finally {
                destroy(launcher);
            }
        }
    }

    @Test
    void shouldExit2NamingTheLogFileWhenTheLogDiskIsFull() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("logs"), 64)) {
            assumeTrue(disk.mounted(), disk.why());
            List<String> command = launcherCommand();
            command.add(command.indexOf("--"), "--log-dir=" + disk.path());
            Process launcher = start(new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(dir.resolve("err.txt").toFile()));
            try {
                assertExits2Naming(
                        launcher,
                        "ff-launcher: cannot write the log file " + disk.path().resolve(""));
                assertThat(Files.readString(dir.resolve("err.txt"))).contains("No space left on device");
            } finally {
                destroy(launcher);
            }
        }
    }

    /** The launcher, in a JVM of its own, running three groups of {@link LinesApp}. */
    private List<String> launcherCommand() throws IOException {
        Path config = Launcher.config(dir, "127.0.0.1");
        List<String> command = new ArrayList<>(Launcher.javaCommand());
        command.addAll(List.of(Main.class.getName(), "run", "-c", config.toString(), "--no-group-check", "--"));
        command.addAll(Launcher.javaCommand());
        command.addAll(List.of(LinesApp.class.getName(), LINES));
        return command;
    }

    private static Process start(ProcessBuilder builder) throws IOException {
        Process process = builder.start();
        process.getOutputStream().close();
        return process;
    }

    private void assertExits2Naming(Process launcher, String message) throws Exception {
        assertThat(launcher.waitFor(60, TimeUnit.SECONDS))
                .as("the launcher ends")
                .isTrue();
        String err = Files.readString(dir.resolve("err.txt"));
        assertThat(launcher.exitValue()).as(err).isEqualTo(2);
        assertThat(err).contains(message).contains("stopping every group");
    }

    private static void destroy(Process launcher) {
        launcher.descendants().forEach(ProcessHandle::destroyForcibly);
        launcher.destroyForcibly();
    }
}
