package org.fastflowj.packaging;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A finished child process: its exit code and both outputs. {@link #run} always destroys the whole
 * process tree before returning, also on a timeout, so a test can never leave a JVM behind.
 */
record ChildProcess(List<String> command, int exitCode, String out, String err) {

    static ChildProcess run(Path dir, Map<String, String> env, long timeoutSeconds, List<String> command)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("ff-packaging-", ".out");
        Path err = Files.createTempFile("ff-packaging-", ".err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        try {
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new AssertionError("still running after " + timeoutSeconds + " s: " + command + "\nstdout:\n"
                        + read(out) + "\nstderr:\n" + read(err));
            }
            return new ChildProcess(command, process.exitValue(), read(out), read(err));
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** Everything about the run, for an assertion's message. */
    String describe() {
        return String.join(" ", command) + "\nexit code " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
    }

    /** The first executable {@code program} on the PATH, as a shell would find it. */
    static Optional<Path> onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.of(path.split(File.pathSeparator))
                .filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir, program))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
