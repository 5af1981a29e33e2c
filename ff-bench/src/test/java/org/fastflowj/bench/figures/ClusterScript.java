package org.fastflowj.bench.figures;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code ff-bench/cluster.sh} (and the tools it needs) for the tests, with a host prefix of their own. */
final class ClusterScript {
    private static final Path SCRIPT = Path.of("cluster.sh").toAbsolutePath();

    private ClusterScript() {}

    record Result(int exit, String output) {}

    /** Whether namespaces and shaped links can be made here: root, {@code ip} and {@code tc}. */
    static boolean canMakeNamespaces() throws Exception {
        return ProcessHandle.current().info().user().map("root"::equals).orElse(false)
                && run("ip", "netns", "list").exit == 0
                && run("tc", "-V").exit == 0;
    }

    /** {@code cluster.sh ARGS} with hosts named {@code PREFIXi} and its state kept in {@code state}. */
    static Result cluster(String prefix, Path state, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("FFJ_CLUSTER_PREFIX", prefix);
        builder.environment().put("FFJ_CLUSTER_STATE", state.toString());
        return run(builder);
    }

    static Result run(String... command) throws Exception {
        return run(new ProcessBuilder(command));
    }

    /** Runs to the end (60 s at most), output and errors together; the process is gone afterwards. */
    private static Result run(ProcessBuilder builder) throws InterruptedException, IOException {
        Process process = builder.redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("timed out: " + builder.command());
            }
            return new Result(process.exitValue(), output);
        } finally {
            process.destroyForcibly();
        }
    }
}
