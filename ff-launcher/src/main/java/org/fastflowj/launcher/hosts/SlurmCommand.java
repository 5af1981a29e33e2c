package org.fastflowj.launcher.hosts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one SLURM client command (scontrol, sinfo, squeue, scancel) with a time limit.
 *
 * <p>The output goes to a temporary file rather than a pipe: a large allocation's node list could fill
 * a pipe nobody reads while we wait, and reading a pipe to its end could wait forever on a command
 * that hangs (a controller that does not answer).
 *
 * <p>Threading: stateless.
 */
final class SlurmCommand {
    /**
     * @param exitCode the command's exit code, -1 when it could not run or did not finish in time
     * @param output stdout and stderr together
     */
    record Result(int exitCode, String output) {
        boolean ok() {
            return exitCode == 0;
        }
    }

    private SlurmCommand() {}

    static Result run(long timeoutSeconds, List<String> command) throws InterruptedException {
        Path output = null;
        try {
            output = Files.createTempFile("ff-launcher-slurm", ".out");
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, String.join(" ", command) + " did not answer within " + timeoutSeconds + " s");
            }
            return new Result(p.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Result(-1, String.join(" ", command) + ": " + e.getMessage());
        } finally {
            if (output != null) {
                try {
                    Files.deleteIfExists(output);
                } catch (IOException e) {
                    // A leftover file in the temporary directory is harmless.
                }
            }
        }
    }
}
