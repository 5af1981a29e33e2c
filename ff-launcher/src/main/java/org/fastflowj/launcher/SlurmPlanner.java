package org.fastflowj.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;

/**
 * {@code run --slurm}: inside an allocation, group {@code i} (config order) runs as the single task of
 * its own {@code srun} step on allocation node {@code i mod nodes}. The config's hosts are replaced by
 * those nodes in a copy written next to the config ({@code app.slurm-<jobid>.json}, so it is on the same
 * shared file system), which every group is given.
 *
 * <p>One step per group rather than one step of N tasks keeps a group's exit status, output and stop
 * its own, exactly as for local and ssh groups; {@code --overlap} lets steps share CPUs, so an allocation
 * smaller than the number of groups still runs them all.
 *
 * <p>Threading: used on the main thread before the run.
 */
final class SlurmPlanner {
    private final DffConfig config;
    private final Path configFile;
    private final List<String> command;
    private final Map<String, String> env;

    SlurmPlanner(DffConfig config, Path configFile, List<String> command, Map<String, String> env) {
        this.config = config;
        this.configFile = configFile;
        this.command = List.copyOf(command);
        this.env = env;
    }

    List<GroupLaunch> plan() throws IOException, InterruptedException {
        String jobId = env.get("SLURM_JOB_ID");
        if (jobId == null) {
            throw new IllegalStateException(
                    "--slurm runs inside a SLURM allocation (salloc, sbatch): SLURM_JOB_ID is not set");
        }
        List<String> nodes = expandNodes(env.getOrDefault("SLURM_JOB_NODELIST", env.get("SLURM_NODELIST")));
        List<GroupConfig> groups = config.groups();
        List<String> hosts = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            hosts.add(nodes.get(i % nodes.size()));
        }
        Path slurmConfig = writeConfig(hosts, jobId);
        // Only the jvmArgs placement is wanted from the planner: SLURM needs no ssh.
        LaunchPlanner planner =
                new LaunchPlanner(config, slurmConfig, command, new RemoteOptions(), null, java.time.Duration.ZERO);
        List<GroupLaunch> launches = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            GroupConfig group = groups.get(i);
            String line = LaunchPlanner.withPreCmd(
                    ShellQuoting.join(planner.applicationCommand(group, slurmConfig.toString())), group);
            List<String> argv = List.of(
                    "srun",
                    "--ntasks=1",
                    "--nodes=1",
                    "--nodelist=" + hosts.get(i),
                    "--overlap",
                    "--kill-on-bad-exit=1",
                    "--job-name=" + group.name(),
                    "/bin/sh",
                    "-c",
                    line);
            launches.add(new GroupLaunch(group.name(), hosts.get(i), false, argv));
        }
        return launches;
    }

    /** {@code node[1-3],gpu7} as single names, by asking SLURM itself. */
    private static List<String> expandNodes(String nodeList) throws IOException, InterruptedException {
        if (nodeList == null) {
            throw new IllegalStateException("--slurm: SLURM_JOB_NODELIST is not set");
        }
        Process p = new ProcessBuilder("scontrol", "show", "hostnames", nodeList)
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0 || output.isBlank()) {
            throw new IllegalStateException("--slurm: scontrol cannot expand '" + nodeList + "': " + output.strip());
        }
        return output.lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private Path writeConfig(List<String> hosts, String jobId) {
        try {
            ObjectMapper mapper = new ObjectMapper();
            JsonNode root = mapper.readTree(configFile.toFile());
            JsonNode groups = root.get("groups");
            for (int i = 0; i < hosts.size(); i++) {
                ObjectNode group = (ObjectNode) groups.get(i);
                group.put(
                        "endpoint", hosts.get(i) + ":" + config.groups().get(i).port());
                group.remove("host");
            }
            String name = configFile.getFileName().toString().replaceFirst("\\.json$", "");
            Path out = configFile.resolveSibling(name + ".slurm-" + jobId + ".json");
            mapper.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("--slurm: cannot write the allocation's config", e);
        }
    }
}
