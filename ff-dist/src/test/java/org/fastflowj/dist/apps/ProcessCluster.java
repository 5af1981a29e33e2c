package org.fastflowj.dist.apps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Starts every group of a test application as its own JVM (small heap, C1 only: cheap to start), each
 * writing to a log file, and always destroys the whole process tree in {@link #close()}.
 */
public final class ProcessCluster implements AutoCloseable {
    private final Map<String, Process> processes = new LinkedHashMap<>();
    private final Map<String, Path> logs = new LinkedHashMap<>();
    private final Path javaHome;

    private ProcessCluster(Path javaHome) {
        this.javaHome = javaHome;
    }

    /** As {@link #start(Class, Path, List, List, String...)}, on the JDK at {@code javaHome}. */
    public static ProcessCluster startOn(
            Path javaHome, Class<?> main, Path config, List<String> groups, List<String> jvmArgs, String... args)
            throws IOException {
        return start(javaHome, main, config, groups, Map.of(), g -> jvmArgs, args);
    }

    /** Starts {@code main} once per group with {@code --DFF_GName=G --DFF_Config=config}, then {@code args}. */
    public static ProcessCluster start(
            Class<?> main, Path config, List<String> groups, List<String> jvmArgs, String... args) throws IOException {
        return start(main, config, groups, Map.of(), g -> jvmArgs, args);
    }

    /** As above, the environment after the JVM arguments. */
    public static ProcessCluster start(
            Class<?> main,
            Path config,
            List<String> groups,
            List<String> jvmArgs,
            Map<String, Map<String, String>> envByGroup,
            String... args)
            throws IOException {
        return start(main, config, groups, envByGroup, g -> jvmArgs, args);
    }

    /** As above, with extra environment variables for some groups ({@code envByGroup}: group to variables). */
    public static ProcessCluster start(
            Class<?> main,
            Path config,
            List<String> groups,
            Map<String, Map<String, String>> envByGroup,
            List<String> jvmArgs,
            String... args)
            throws IOException {
        return start(main, config, groups, envByGroup, g -> jvmArgs, args);
    }

    /** As above, with each group's own JVM options. */
    public static ProcessCluster start(
            Class<?> main, Path config, List<String> groups, Function<String, List<String>> jvmArgsOf, String... args)
            throws IOException {
        return start(main, config, groups, Map.of(), jvmArgsOf, args);
    }

    private static ProcessCluster start(
            Class<?> main,
            Path config,
            List<String> groups,
            Map<String, Map<String, String>> envByGroup,
            Function<String, List<String>> jvmArgsOf,
            String... args)
            throws IOException {
        return start(Path.of(System.getProperty("java.home")), main, config, groups, envByGroup, jvmArgsOf, args);
    }

    private static ProcessCluster start(
            Path javaHome,
            Class<?> main,
            Path config,
            List<String> groups,
            Map<String, Map<String, String>> envByGroup,
            Function<String, List<String>> jvmArgsOf,
            String... args)
            throws IOException {
        ProcessCluster cluster = new ProcessCluster(javaHome);
        try {
            for (String g : groups) {
                cluster.startGroup(main, config, g, envByGroup.getOrDefault(g, Map.of()), jvmArgsOf.apply(g), args);
            }
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startGroup(
            Class<?> main, Path config, String group, Map<String, String> env, List<String> jvmArgs, String... args)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(javaHome.resolve("bin").resolve("java").toString());
        command.add("-Xmx64m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-XX:+UseSerialGC");
        command.add("-Xshare:auto");
        // Netty's leak detector as in the test JVM; awaitExit fails on a leak a group reported.
        command.add("-Dio.netty.leakDetection.level=paranoid");
        command.add("-Dio.netty.leakDetection.acquireAndReleaseOnly=true");
        // Netty loads its epoll library through JNI, which JDK 24 and later warn about unless allowed.
        command.add("--enable-native-access=ALL-UNNAMED");
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.add("--DFF_GName=" + group);
        command.add("--DFF_Config=" + config);
        command.addAll(List.of(args));
        Path log = Files.createTempFile("ff-dist-" + group + "-", ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        Process p = builder.start();
        processes.put(group, p);
        logs.put(group, log);
    }

    public Process process(String group) {
        return processes.get(group);
    }

    /**
     * Waits for every process; returns each exit code, or throws naming those still running, or a group
     * whose Netty leak detector reported a buffer never released.
     */
    public Map<String, Integer> awaitExit(long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        Map<String, Integer> codes = new LinkedHashMap<>();
        for (Map.Entry<String, Process> e : processes.entrySet()) {
            long left = deadline - System.nanoTime();
            if (!e.getValue().waitFor(Math.max(0, left), TimeUnit.NANOSECONDS)) {
                throw new AssertionError(
                        "group " + e.getKey() + " still running after " + timeoutSeconds + " s; logs:\n" + allOutput());
            }
            codes.put(e.getKey(), e.getValue().exitValue());
        }
        for (String group : processes.keySet()) {
            if (output(group).contains("LEAK: ")) {
                throw new AssertionError("group " + group + " leaked a Netty buffer; logs:\n" + allOutput());
            }
        }
        return codes;
    }

    public String output(String group) {
        try {
            return Files.readString(logs.get(group));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    public String allOutput() {
        StringBuilder sb = new StringBuilder();
        for (String g : processes.keySet()) {
            sb.append("---- ").append(g).append(" ----\n").append(output(g)).append('\n');
        }
        return sb.toString();
    }

    @Override
    public void close() {
        for (Process p : processes.values()) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : processes.values()) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (Path log : logs.values()) {
            try {
                Files.deleteIfExists(log);
            } catch (IOException e) {
                // a temp file left behind is harmless
            }
        }
    }

    /** Writes a config for {@code groups} on free loopback ports ({@code topLevel}: extra "key": value pairs). */
    public static Path config(Path dir, List<String> groups, String topLevel) throws IOException {
        Path file = dir.resolve("app.json");
        Files.writeString(file, configJson(groups, topLevel));
        return file;
    }

    /** The JSON of a config for {@code groups} on free loopback ports, with {@code topLevel} keys. */
    public static String configJson(List<String> groups, String topLevel) {
        StringBuilder json = new StringBuilder("{\n");
        if (!topLevel.isBlank()) {
            json.append("  ").append(topLevel).append(",\n");
        }
        json.append("  \"groups\": [\n");
        Set<Integer> used = new HashSet<>();
        for (int i = 0; i < groups.size(); i++) {
            int port = freePort();
            while (!used.add(port)) { // a port just closed can be handed out again: one endpoint per group
                port = freePort();
            }
            json.append("    {\"name\": \"")
                    .append(groups.get(i))
                    .append("\", \"endpoint\": \"127.0.0.1:")
                    .append(port)
                    .append("\"}")
                    .append(i + 1 < groups.size() ? ",\n" : "\n");
        }
        return json.append("  ]\n}\n").toString();
    }

    /** A port nothing listens on right now (bound and closed: another process could take it meanwhile). */
    public static int freePort() {
        return org.fastflowj.testing.FreePorts.next();
    }
}
