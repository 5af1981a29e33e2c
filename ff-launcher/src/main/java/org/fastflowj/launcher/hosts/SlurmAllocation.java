package org.fastflowj.launcher.hosts;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SLURM allocation the launcher runs in: its job id and its nodes, each with the address SLURM
 * itself reaches it at.
 *
 * <p>The node list ({@code n[1-2],gpu07}) is expanded by {@code scontrol show hostnames}, SLURM's own
 * parser. The address is the node's {@code NodeAddr}: the node name unless slurm.conf says otherwise,
 * and where it does, the name may not resolve at all (several nodes emulated on one machine, or names
 * that exist only for SLURM), while the address is known to work.
 *
 * <p>Threading: immutable once read.
 *
 * @param jobId {@code SLURM_JOB_ID}
 * @param nodes the allocation's nodes in SLURM's order
 */
public record SlurmAllocation(String jobId, List<Node> nodes) {
    /** How long scontrol and sinfo may take: they ask slurmctld, which answers in milliseconds. */
    private static final long COMMAND_TIMEOUT_SECONDS = 15;

    /**
     * @param name the node name, as srun's {@code --nodelist} takes it
     * @param address the host the node's groups listen on and are reached at
     */
    public record Node(String name, String address) {}

    /** Reads the allocation from the environment SLURM gives the programs inside it (salloc, sbatch). */
    public static SlurmAllocation fromEnvironment(Map<String, String> env) throws InterruptedException {
        String jobId = env.get("SLURM_JOB_ID");
        if (jobId == null) {
            throw new IllegalStateException(
                    "--slurm runs inside a SLURM allocation (salloc, sbatch): SLURM_JOB_ID is not set");
        }
        String nodeList = env.getOrDefault("SLURM_JOB_NODELIST", env.get("SLURM_NODELIST"));
        if (nodeList == null || nodeList.isBlank()) {
            throw new IllegalStateException("--slurm: SLURM_JOB_NODELIST is not set");
        }
        List<String> names = lines(run("scontrol", "show", "hostnames", nodeList), "scontrol show hostnames");
        Map<String, String> addresses = addresses(nodeList);
        List<Node> nodes = names.stream()
                .map(name -> new Node(name, addresses.getOrDefault(name, name)))
                .toList();
        return new SlurmAllocation(jobId, nodes);
    }

    /** {@code NodeName -> NodeAddr}; empty if sinfo cannot tell, and the names are used as they are. */
    private static Map<String, String> addresses(String nodeList) throws InterruptedException {
        Map<String, String> addresses = new HashMap<>();
        try {
            for (String line :
                    lines(run("sinfo", "--noheader", "--Node", "--nodes=" + nodeList, "--format=%N %o"), "sinfo")) {
                String[] nameAndAddress = line.split("\\s+");
                if (nameAndAddress.length == 2) {
                    addresses.put(nameAndAddress[0], nameAndAddress[1]);
                }
            }
        } catch (IllegalStateException e) {
            // Without addresses the node names still work wherever they resolve, as on most clusters.
        }
        return addresses;
    }

    private static List<String> lines(String output, String what) {
        List<String> lines =
                output.lines().map(String::strip).filter(s -> !s.isEmpty()).toList();
        if (lines.isEmpty()) {
            throw new IllegalStateException("--slurm: " + what + " printed nothing");
        }
        return lines;
    }

    /** Runs a SLURM command; its output, or an exception naming the command and what it printed. */
    private static String run(String... command) throws InterruptedException {
        SlurmCommand.Result result = SlurmCommand.run(COMMAND_TIMEOUT_SECONDS, List.of(command));
        if (!result.ok()) {
            throw new IllegalStateException("--slurm: " + String.join(" ", command) + " failed: "
                    + result.output().strip());
        }
        return result.output();
    }
}
