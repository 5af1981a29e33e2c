package org.fastflowj.examples;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs an application as groups, each its own JVM (small heap, C1 only: cheap to start) started as the
 * jar would be, {@code Main <app> --DFF_GName=G --DFF_Config=config ...}, with its output in a log file.
 * {@link #close()} always destroys every process tree.
 */
public final class GroupCluster implements AutoCloseable {
    private static final Pattern ENDPOINT = Pattern.compile("\"endpoint\"\\s*:\\s*\"127\\.0\\.0\\.1:(\\d+)\"");

    private final Map<String, Process> processes = new LinkedHashMap<>();
    private final Map<String, Path> logs = new LinkedHashMap<>();
    private final Map<String, Path> errLogs = new LinkedHashMap<>();

    private GroupCluster() {}

    /** Starts one JVM per group, each running {@code args} (the subcommand first) as group G. */
    public static GroupCluster start(Path config, List<String> groups, String... args) throws IOException {
        GroupCluster cluster = new GroupCluster();
        try {
            for (String g : groups) {
                cluster.startGroup(config, g, args);
            }
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startGroup(Path config, String group, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("-Xmx96m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto"));
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Main.class.getName());
        command.add("--DFF_GName=" + group);
        command.add("--DFF_Config=" + config);
        command.addAll(List.of(args));
        Path log = Files.createTempFile("ff-examples-" + group + "-", ".out");
        Path errLog = Files.createTempFile("ff-examples-" + group + "-", ".err");
        Process p = new ProcessBuilder(command)
                .redirectOutput(log.toFile())
                .redirectError(errLog.toFile())
                .start();
        processes.put(group, p);
        logs.put(group, log);
        errLogs.put(group, errLog);
    }

    /** Waits for every process; returns each exit code, or fails naming the groups still running. */
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
        return codes;
    }

    /**
     * What the application printed on standard output in group {@code group}: without ff-dist's own
     * {@code DFF_CONNECTED: <group>} line (printed once the group's links are open, for the launcher).
     */
    public String output(String group) {
        return read(logs.get(group)).replaceAll("(?m)^DFF_CONNECTED: .*\\R", "");
    }

    /** What group {@code group} printed on standard error. */
    public String errors(String group) {
        return read(errLogs.get(group));
    }

    private static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    public String allOutput() {
        StringBuilder sb = new StringBuilder();
        for (String g : processes.keySet()) {
            sb.append("---- ")
                    .append(g)
                    .append(" ----\n")
                    .append(output(g))
                    .append(errors(g))
                    .append('\n');
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
        List<Path> all = new ArrayList<>(logs.values());
        all.addAll(errLogs.values());
        for (Path log : all) {
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
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
