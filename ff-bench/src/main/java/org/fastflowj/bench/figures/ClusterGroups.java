package org.fastflowj.bench.figures;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs an application of ff-examples with its groups on the emulated cluster's hosts
 * ({@code ff-bench/cluster.sh up 2}), started by ff-launcher exactly as a cluster user starts them: a config
 * whose groups say {@code "host": "netns:PREFIXi"} and listen at {@value ShapedLink#SUBNET}i, and
 *
 * <pre>
 *   java -cp CP org.fastflowj.launcher.Main run -c FIGURE.json --timeout Ns --no-status --no-group-check --no-cds \
 *       -- java -cp CP org.fastflowj.examples.Main APP ARGS...
 * </pre>
 *
 * <p>The launcher enters each group's namespace ({@code ip netns exec}), so every byte between groups on
 * different hosts crosses the two shaped veth links and the bridge. {@code --no-group-check} and
 * {@code --no-cds}: the program is fixed, so asking it its groups would only add a JVM start per run, and a
 * CDS archive written at one group's exit would take a core from the groups still measuring.
 *
 * <p>Threading: used by the figure's thread only.
 */
final class ClusterGroups {
    /** One group and the cluster host (1-based) it runs on. */
    record Placement(String group, int host) {}

    private final String prefix;
    private final Path scratch;
    private final long timeoutSeconds;
    /** The shaped link's peers take 21000 and up; these groups 23000 and up, a new set each run. */
    private int nextPort = 23000;

    ClusterGroups(String prefix, Path scratch, long timeoutSeconds) {
        this.prefix = prefix;
        this.scratch = scratch;
        this.timeoutSeconds = timeoutSeconds;
    }

    /**
     * Runs {@code app} (an ff-examples command) with {@code groups} placed on the cluster's hosts and
     * returns everything the launcher printed: the groups' lines, each {@code [GROUP] line}, and its own.
     * The config is written to {@code scratch/FIGURE.json}, the launcher's output to
     * {@code scratch/FIGURE-launcher.log}; a run that does not exit 0 is an error quoting its end.
     */
    String run(String figure, List<Placement> groups, String batchSize, List<String> app)
            throws IOException, InterruptedException {
        Path config = scratch.resolve(figure + ".json");
        Files.writeString(config, config(groups, batchSize), StandardCharsets.UTF_8);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path");
        List<String> command = new ArrayList<>(List.of(
                java,
                "-Xmx128m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                classPath,
                "org.fastflowj.launcher.Main",
                "run",
                "-c",
                config.toString(),
                "--timeout",
                timeoutSeconds + "s",
                "--no-status",
                "--no-group-check",
                "--no-cds",
                "--",
                java,
                "-Xmx512m",
                "-cp",
                classPath,
                "org.fastflowj.examples.Main"));
        command.addAll(app);
        Path log = scratch.resolve(figure + "-launcher.log");
        Process launcher = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            // The launcher's own --timeout stops the groups first; this one only guards against the launcher.
            if (!launcher.waitFor(timeoutSeconds + 60, TimeUnit.SECONDS)) {
                throw new IllegalStateException(figure + ": the launcher did not end; its output: " + log);
            }
            String printed = Files.readString(log, StandardCharsets.UTF_8);
            if (launcher.exitValue() != 0) {
                throw new IllegalStateException(figure + ": the launcher exited " + launcher.exitValue() + " (config "
                        + config + "); its last lines:\n" + tail(printed, 30));
            }
            return printed;
        } finally {
            // SIGTERM first: the launcher then stops its groups; whatever is left gets SIGKILL.
            List<ProcessHandle> tree = launcher.descendants().toList();
            launcher.destroy();
            if (!launcher.waitFor(15, TimeUnit.SECONDS)) {
                launcher.destroyForcibly();
            }
            tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        }
    }

    /** The config of one run: each group on its host's address, on ports no earlier run used. */
    String config(List<Placement> groups, String batchSize) {
        StringBuilder json = new StringBuilder("{ \"batchSize\": " + batchSize + ", \"groups\": [\n");
        for (int i = 0; i < groups.size(); i++) {
            Placement p = groups.get(i);
            json.append(i == 0 ? "" : ",\n")
                    .append("  { \"name\": \"")
                    .append(p.group())
                    .append("\", \"endpoint\": \"")
                    .append(ShapedLink.SUBNET)
                    .append(p.host())
                    .append(':')
                    .append(nextPort++)
                    .append("\", \"host\": \"netns:")
                    .append(prefix)
                    .append(p.host())
                    .append("\" }");
        }
        return json.append("\n] }\n").toString();
    }

    private static String tail(String text, int lines) {
        List<String> all = text.lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }
}
