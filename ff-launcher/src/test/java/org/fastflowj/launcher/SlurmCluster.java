package org.fastflowj.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Test support: a private SLURM cluster on this machine (Debian's slurm-wlm): one slurmctld and two
 * slurmd emulating nodes {@code n1} and {@code n2} (NodeAddr 127.0.0.1), on free ports, with every state,
 * spool, pid and log file under one directory, and no munge ({@code auth/none}). Nothing is read from or
 * written to /etc/slurm: every SLURM command gets {@code SLURM_CONF} from {@link #command}.
 *
 * <p>Tests skip when the daemons are not installed or the nodes are not idle within {@link #UP_SECONDS}.
 * {@link #close()} kills the daemons and everything they started.
 */
final class SlurmCluster implements AutoCloseable {
    static final List<String> NODES = List.of("n1", "n2");
    private static final long UP_SECONDS = 15;
    private static final List<Path> BIN_DIRS = List.of(Path.of("/usr/sbin"), Path.of("/usr/bin"));

    private final Path conf;
    private final List<Process> daemons = new ArrayList<>();

    private SlurmCluster(Path conf) {
        this.conf = conf;
    }

    /** Starts the cluster under {@code dir}; returns once both nodes are idle, or skips the test. */
    static SlurmCluster start(Path dir) throws Exception {
        Optional<Path> slurmctld = find("slurmctld");
        Optional<Path> slurmd = find("slurmd");
        Assumptions.assumeTrue(
                slurmctld.isPresent() && slurmd.isPresent() && find("salloc").isPresent(),
                "skipped: no slurmctld/slurmd/salloc (apt-get install -y slurm-wlm)");
        SlurmCluster cluster = new SlurmCluster(writeConf(dir));
        try {
            cluster.daemons.add(
                    cluster.daemon(dir, "slurmctld", List.of(slurmctld.get().toString(), "-D")));
            for (String node : NODES) {
                cluster.daemons.add(cluster.daemon(
                        dir, "slurmd-" + node, List.of(slurmd.get().toString(), "-D", "-N", node)));
            }
            Assumptions.assumeTrue(
                    cluster.awaitIdle(),
                    "skipped: the SLURM nodes were not idle within " + UP_SECONDS + " s (logs in " + dir + ")");
            return cluster;
        } catch (Throwable t) {
            cluster.close();
            throw t;
        }
    }

    /** {@code argv} as a process of this cluster's: SLURM_CONF set, no SLURM_* inherited from outside. */
    ProcessBuilder command(List<String> argv) {
        ProcessBuilder builder = new ProcessBuilder(argv);
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.startsWith("SLURM_"));
        env.put("SLURM_CONF", conf.toString());
        return builder;
    }

    /** What {@code argv} prints (stdout and stderr), or "" if it fails or takes more than 10 s. */
    String output(List<String> argv) throws Exception {
        Process p = command(argv).redirectErrorStream(true).start();
        p.getOutputStream().close();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "";
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return p.exitValue() == 0 ? out : "";
    }

    @Override
    public void close() {
        for (Process daemon : daemons) {
            // Children first: slurmctld's slurmscriptd and any slurmstepd of a slurmd.
            daemon.descendants().forEach(ProcessHandle::destroyForcibly);
            daemon.destroyForcibly();
        }
        for (Process daemon : daemons) {
            try {
                daemon.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private Process daemon(Path dir, String name, List<String> argv) throws IOException {
        return command(argv)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".out").toFile())
                .start();
    }

    private boolean awaitIdle() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(UP_SECONDS);
        while (System.nanoTime() < deadline) {
            List<String> states = output(List.of("sinfo", "--noheader", "--Node", "--format=%T"))
                    .lines()
                    .map(String::strip)
                    .toList();
            if (states.size() == NODES.size() && states.stream().allMatch("idle"::equals)) {
                return true;
            }
            if (daemons.stream().anyMatch(d -> !d.isAlive())) {
                return false;
            }
            Thread.sleep(200);
        }
        return false;
    }

    private static Path writeConf(Path dir) throws Exception {
        Path state = Files.createDirectories(dir.resolve("state"));
        Path spool = Files.createDirectories(dir.resolve("spool"));
        Process hostname = new ProcessBuilder("hostname", "-s").start();
        String host = new String(hostname.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        hostname.waitFor();
        List<String> lines = new ArrayList<>(List.of(
                "ClusterName=fflauncher",
                "SlurmctldHost=" + host,
                "SlurmctldPort=" + Launcher.freePort(),
                "SlurmUser=root",
                "SlurmdUser=root",
                // No munge daemon to run: SLURM 22.05 accepts unauthenticated requests on a private cluster.
                "AuthType=auth/none",
                "CredType=cred/none",
                // No cgroups in a container: processes are tracked by parentage, CPUs are not bound.
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_Core",
                "ReturnToService=2",
                "StateSaveLocation=" + state,
                // %n: each emulated node gets its own spool, pid and log file.
                "SlurmdSpoolDir=" + spool + "/%n",
                "SlurmctldPidFile=" + dir.resolve("slurmctld.pid"),
                "SlurmdPidFile=" + dir.resolve("slurmd-%n.pid"),
                "SlurmctldLogFile=" + dir.resolve("slurmctld.log"),
                "SlurmdLogFile=" + dir.resolve("slurmd-%n.log")));
        for (String node : NODES) {
            lines.add(
                    "NodeName=" + node + " NodeAddr=127.0.0.1 Port=" + Launcher.freePort() + " CPUs=2 RealMemory=1000");
        }
        lines.add("PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP");
        Path conf = dir.resolve("slurm.conf");
        Files.write(conf, lines);
        return conf;
    }

    private static Optional<Path> find(String program) {
        Stream<Path> path = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .filter(s -> !s.isEmpty())
                .map(Path::of);
        return Stream.concat(path, BIN_DIRS.stream())
                .map(d -> d.resolve(program))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
