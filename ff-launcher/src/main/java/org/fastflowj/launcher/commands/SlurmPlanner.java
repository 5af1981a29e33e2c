package org.fastflowj.launcher.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.launcher.hosts.GroupLaunch;
import org.fastflowj.launcher.hosts.RemoteOptions;
import org.fastflowj.launcher.hosts.ShellQuoting;
import org.fastflowj.launcher.hosts.SlurmAllocation;
import org.fastflowj.launcher.hosts.SlurmStep;

/**
 * {@code run --slurm}: inside an allocation, group {@code i} (config order) runs as the single task of
 * its own {@code srun} step on allocation node {@code i mod nodes}. The config's hosts are replaced by
 * those nodes' addresses in a copy written next to the config ({@code app.slurm-<jobid>.json}, so it is
 * on the same shared file system), which every group is given.
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
    private final SlurmAllocation allocation;

    SlurmPlanner(DffConfig config, Path configFile, List<String> command, SlurmAllocation allocation) {
        this.config = config;
        this.configFile = configFile;
        this.command = List.copyOf(command);
        this.allocation = allocation;
    }

    List<GroupLaunch> plan() {
        List<GroupConfig> groups = config.groups();
        List<SlurmAllocation.Node> nodes = allocation.nodes();
        List<SlurmAllocation.Node> placement = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            placement.add(nodes.get(i % nodes.size()));
        }
        Path slurmConfig = writeConfig(placement);
        // Only the jvmArgs placement is wanted from the planner: SLURM needs no ssh.
        LaunchPlanner planner =
                new LaunchPlanner(config, slurmConfig, command, new RemoteOptions(), null, Duration.ZERO);
        List<GroupLaunch> launches = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            GroupConfig group = groups.get(i);
            String line = LaunchPlanner.withPreCmd(
                    ShellQuoting.join(planner.applicationCommand(group, slurmConfig.toString())), group);
            // Named after this launcher too, so that stopping a step can never hit another run's.
            SlurmStep step = new SlurmStep(
                    allocation.jobId(), "ff-launcher-" + ProcessHandle.current().pid() + "-" + group.name());
            List<String> argv = List.of(
                    "srun",
                    // Explicit: salloc/sbatch export SLURM_NTASKS, SLURM_NNODES... and srun would take them.
                    "--ntasks=1",
                    "--nodes=1",
                    "--nodelist=" + placement.get(i).name(),
                    "--overlap",
                    // The default, made explicit: a site's SLURM_EXPORT_ENV=NONE would keep DFF_Secret from the group.
                    "--export=ALL",
                    "--job-name=" + step.stepName(),
                    "/bin/sh",
                    "-c",
                    line);
            launches.add(new GroupLaunch(group.name(), placement.get(i).name(), false, argv, step));
        }
        return launches;
    }

    private Path writeConfig(List<SlurmAllocation.Node> placement) {
        try {
            ObjectMapper mapper = new ObjectMapper();
            JsonNode root = mapper.readTree(configFile.toFile());
            JsonNode groups = root.get("groups");
            for (int i = 0; i < placement.size(); i++) {
                ObjectNode group = (ObjectNode) groups.get(i);
                group.put(
                        "endpoint",
                        endpointHost(placement.get(i).address()) + ":"
                                + config.groups().get(i).port());
                // The launch host was the config's choice; under SLURM the allocation decides.
                group.remove("host");
            }
            String name = configFile.getFileName().toString().replaceFirst("\\.json$", "");
            Path out = configFile.resolveSibling(name + ".slurm-" + allocation.jobId() + ".json");
            mapper.writerWithDefaultPrettyPrinter().writeValue(out.toFile(), root);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("--slurm: cannot write the allocation's config", e);
        }
    }

    /** An IPv6 NodeAddr needs brackets in {@code host:port}. */
    private static String endpointHost(String address) {
        return address.contains(":") ? "[" + address + "]" : address;
    }
}
