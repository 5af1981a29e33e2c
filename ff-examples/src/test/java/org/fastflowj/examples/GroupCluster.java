package org.fastflowj.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs an application as groups through the launcher, as a user would: one launcher JVM ({@code
 * ff-launcher run -c config --log-dir ... -- java ... Main <app> ...}) that starts one JVM per group (small
 * heap, C1 only: cheap to start) and prefixes each group's lines with {@code [G] }; this class splits the
 * launcher's standard output back into each group's. {@link #close()} always destroys the process tree.
 */
public final class GroupCluster implements AutoCloseable {
    private static final Pattern ENDPOINT = Pattern.compile("\"endpoint\"\\s*:\\s*\"127\\.0\\.0\\.1:(\\d+)\"");

    private final List<String> groups;
    private final Process launcher;
    private final Path out;
    private final Path err;

    private GroupCluster(List<String> groups, Process launcher, Path out, Path err) {
        this.groups = groups;
        this.launcher = launcher;
        this.out = out;
        this.err = err;
    }

    /** Starts the launcher, which starts one JVM per group of {@code config}, each running {@code args}. */
    public static GroupCluster start(Path config, List<String> groups, String... args) throws IOException {
        return start(Main.class, config, groups, args);
    }

    /** As {@link #start(Path, List, String...)}, each group running {@code main} of a test application. */
    public static GroupCluster start(Class<?> main, Path config, List<String> groups, String... args)
            throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", classPath));
        command.addAll(List.of(org.fastflowj.launcher.Main.class.getName(), "run", "--no-status", "--timeout", "90s"));
        command.addAll(List.of("-c", config.toString(), "--"));
        command.addAll(List.of(java, "-Xmx96m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"));
        command.addAll(List.of("-cp", classPath, main.getName()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("ff-examples-launcher-", ".out");
        Path err = Files.createTempFile("ff-examples-launcher-", ".err");
        Process launcher = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        return new GroupCluster(List.copyOf(groups), launcher, out, err);
    }

    /**
     * Waits for the launcher; every group's code is 0 when the launcher says every group exited 0, else
     * the launcher's own exit code (it names the failing group in its output).
     */
    public Map<String, Integer> awaitExit(long timeoutSeconds) throws InterruptedException {
        if (!launcher.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new AssertionError(
                    "the launcher is still running after " + timeoutSeconds + " s; output:\n" + allOutput());
        }
        Map<String, Integer> codes = new LinkedHashMap<>();
        for (String g : groups) {
            codes.put(g, launcher.exitValue());
        }
        return codes;
    }

    /** The JVM of {@code group}: the launcher's descendant whose own program is java and whose arguments name it. */
    public Optional<ProcessHandle> groupJvm(String group) {
        return launcher.descendants()
                .filter(p -> {
                    List<String> argv = commandLine(p);
                    return !argv.isEmpty() && argv.get(0).endsWith("java") && argv.contains("--DFF_GName=" + group);
                })
                .findFirst();
    }

    /** A process's argv as the kernel holds it (ProcessHandle.Info may leave arguments out). */
    private static List<String> commandLine(ProcessHandle p) {
        try {
            String raw = Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
            return List.of(raw.split("\0"));
        } catch (IOException e) {
            return List.of(); // it exited meanwhile
        }
    }

    public boolean launcherAlive() {
        return launcher.isAlive();
    }

    /** What the application printed on standard output in group {@code group} (the launcher's {@code [G] } lines). */
    public String output(String group) {
        String prefix = "[" + group + "] ";
        StringBuilder sb = new StringBuilder();
        for (String line : read(out).split("\n", -1)) { // not \\R: a line may end in its own \r (CRLF files)
            if (line.startsWith(prefix)) {
                sb.append(line, prefix.length(), line.length()).append('\n');
            }
        }
        return sb.toString();
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Everything the launcher printed: the groups' prefixed lines and its own report. */
    public String allOutput() {
        return "---- launcher stdout ----\n" + read(out) + "---- launcher stderr ----\n" + read(err);
    }

    @Override
    public void close() {
        launcher.descendants().forEach(ProcessHandle::destroyForcibly);
        launcher.destroyForcibly();
        try {
            launcher.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Path log : List.of(out, err)) {
            try {
                Files.deleteIfExists(log);
            } catch (IOException e) {
                // a temp file left behind is harmless
            }
        }
    }

    /**
     * A copy of {@code configs/<app>.json} in {@code dir} with every loopback port replaced by a free one,
     * so tests run the shipped config without clashing with anything listening on its ports.
     */
    public static Path configFor(String app, Path dir) throws IOException {
        String json = Files.readString(Path.of("configs", app + ".json"));
        Matcher m = ENDPOINT.matcher(json);
        StringBuilder copy = new StringBuilder();
        Set<Integer> taken = new HashSet<>();
        while (m.find()) {
            int port = freePort();
            while (!taken.add(port)) { // the OS may hand out a port it just freed again
                port = freePort();
            }
            m.appendReplacement(copy, "\"endpoint\": \"127.0.0.1:" + port + "\"");
        }
        m.appendTail(copy);
        Path file = dir.resolve(app + ".json");
        Files.writeString(file, copy);
        return file;
    }

    private static int freePort() {
        return org.fastflowj.testing.FreePorts.next();
    }
}
