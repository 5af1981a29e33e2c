package org.fastflowj.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fastflowj.launcher.process.RunSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --slurm} as a cluster user runs it: {@code salloc -N2 -n3 <launcher> run --slurm ...} on a
 * private two-node {@link SlurmCluster}. The three {@code SumApp} groups become srun steps, A and C on n1,
 * B on n2, and talk through the rewritten config's endpoints (the nodes' NodeAddr, 127.0.0.1).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SlurmLaunchTest {
    /** salloc's own bound: if the run hangs, the test still ends and names what it saw. */
    private static final long SALLOC_SECONDS = 50;

    @TempDir
    static Path clusterDir;

    private static SlurmCluster cluster;

    @TempDir
    Path dir;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = SlurmCluster.start(clusterDir);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void shouldRunEveryGroupAsAStepOnTheAllocationsNodesAndExitZero() throws Exception {
        Launcher.config(dir, "127.0.0.1");
        Run run = salloc(List.of("--timeout", "40s"), Launcher.sumApp("1000"));

        assertThat(run.code()).as(run.toString()).isZero();
        assertThat(run.out()).contains("[A] A up", "[B] B up", "[C] C up", "[C] sum=332833500 count=1000");
        assertThat(run.err()).contains("A (srun n1, pid", "B (srun n2, pid", "C (srun n1, pid", "every group exited 0");
        try (var files = Files.list(dir)) {
            Path rewritten = files.filter(f -> f.getFileName().toString().matches("app\\.slurm-\\d+\\.json"))
                    .findFirst()
                    .orElseThrow();
            assertThat(Files.readString(rewritten)).contains("\"endpoint\" : \"127.0.0.1:");
        }
        assertNothingLeft(run);
    }

    @Test
    void shouldStopEveryStepAndNameTheGroupWhenOneFails() throws Exception {
        Launcher.config(dir, "127.0.0.1");
        Run run = salloc(List.of("--timeout", "40s", "--grace", "2s"), Launcher.sumApp("1000000", "50", "1000"));

        assertThat(run.code()).as(run.toString()).isEqualTo(RunSession.EXIT_GROUP_FAILED);
        assertThat(run.err()).contains("ff-launcher: group B failed first", "the last lines of group B:");
        assertNothingLeft(run);
    }

    @Test
    void shouldStopEveryStepWithSigtermThroughSlurmWhenTheRunTimesOut() throws Exception {
        Launcher.config(dir, "127.0.0.1");
        Run run = salloc(List.of("--timeout", "8s", "--grace", "3s"), Launcher.sumApp("1000000", "-1", "10000"));

        assertThat(run.code()).as(run.toString()).isEqualTo(RunSession.EXIT_TIMEOUT);
        // 143, not srun's 137: the groups got SIGTERM and their grace period, not srun's immediate SIGKILL.
        assertThat(run.err())
                .contains(
                        "stopped group A: exit code 143",
                        "stopped group B: exit code 143",
                        "stopped group C: exit code 143");
        assertNothingLeft(run);
    }

    /**
     * @param leftovers the command lines, right after salloc ended, of the processes naming this test's
     *     directory (srun and the groups; zombies have no command line)
     */
    private record Run(int code, String out, String err, long millis, List<String> leftovers) {
        @Override
        public String toString() {
            return "exit " + code + " after " + millis + " ms\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
        }
    }

    /** {@code salloc --immediate -N2 -n3 <launcher> run --slurm -c app.json OPTIONS -- COMMAND}, to its end. */
    private Run salloc(List<String> options, List<String> command) throws Exception {
        List<String> argv = new ArrayList<>(List.of("salloc", "--immediate=10", "-N2", "-n3"));
        argv.addAll(Launcher.javaCommand());
        argv.add(Main.class.getName());
        argv.addAll(List.of("run", "--slurm", "-c", dir.resolve("app.json").toString()));
        argv.addAll(options);
        argv.add("--");
        argv.addAll(command);
        Path out = dir.resolve("salloc.out");
        Path err = dir.resolve("salloc.err");
        Process salloc = cluster.command(argv)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        long startNs = System.nanoTime();
        try {
            boolean ended = salloc.waitFor(SALLOC_SECONDS, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
            String printedErr = Files.readString(err, StandardCharsets.UTF_8);
            assertThat(ended)
                    .as("salloc still running after %d s:\n%s", SALLOC_SECONDS, printedErr)
                    .isTrue();
            List<String> leftovers = RemoteProcesses.matching(dir.toString()).stream()
                    .map(p -> p.pid() + " " + p.info().commandLine().orElse("?"))
                    .toList();
            Run run = new Run(
                    salloc.exitValue(), Files.readString(out, StandardCharsets.UTF_8), printedErr, millis, leftovers);
            // One line in the build's output: how long a run under SLURM takes on this machine.
            System.out.println("SlurmLaunchTest: salloc exited " + run.code() + " after " + millis + " ms");
            return run;
        } finally {
            salloc.descendants().forEach(ProcessHandle::destroyForcibly);
            salloc.destroyForcibly();
            // The groups are slurmstepd's children, not ours: found by the config path only this test uses.
            RemoteProcesses.kill(dir.toString());
        }
    }

    /**
     * No srun or group process when salloc ended, and no job left in the cluster once SLURM finished
     * completing it (a job stays listed in state CG for a moment after its allocation ended).
     */
    private static void assertNothingLeft(Run run) throws Exception {
        assertThat(run.leftovers()).as(run.toString()).isEmpty();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
        String queue = cluster.output(List.of("squeue", "--noheader"));
        while (!queue.isBlank() && System.nanoTime() < deadline) {
            assertThat(queue).as("only jobs completing may be left").contains(" CG ");
            Thread.sleep(200);
            queue = cluster.output(List.of("squeue", "--noheader"));
        }
        assertThat(queue).isBlank();
    }
}
