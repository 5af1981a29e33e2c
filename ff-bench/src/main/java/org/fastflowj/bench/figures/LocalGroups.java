package org.fastflowj.bench.figures;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.fastflowj.bench.FreePorts;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.run.GroupRun;

/**
 * Runs every group of a program in this JVM, each with its own transport on a loopback port: the code
 * path of one process per group, minus the process start. The figures' loopback rows; their shaped-cluster
 * rows start one process per group through ff-launcher instead ({@link ClusterGroups}).
 */
final class LocalGroups {
    private LocalGroups() {}

    /** Starts {@code groups} of {@code program} and waits for all of them to end, at most {@code timeoutSeconds}. */
    static void run(
            BuildingBlock program,
            List<String> groups,
            String batchSize,
            SerializationConfig serialization,
            long timeoutSeconds)
            throws Exception {
        DffConfig config = DffConfig.parse(config(groups, batchSize), "figures-local-groups.json");
        ExecutorService starters = Executors.newFixedThreadPool(groups.size());
        List<Future<Execution>> starts = new ArrayList<>();
        try {
            for (String group : groups) {
                DFF.Settings settings = new DFF.Settings(group, config, serialization, false);
                starts.add(starters.submit(
                        () -> GroupRun.start(GraphCompiler.compile(program), RunOptions.defaults(), settings)));
            }
            for (int i = 0; i < starts.size(); i++) {
                Execution execution = starts.get(i).get(timeoutSeconds, TimeUnit.SECONDS);
                if (!execution.await(timeoutSeconds, TimeUnit.SECONDS)) {
                    execution.cancel();
                    throw new TimeoutException("group " + groups.get(i) + " did not end in " + timeoutSeconds + " s");
                }
            }
        } finally {
            starters.shutdownNow();
        }
    }

    static String config(List<String> groups, String batchSize) {
        StringBuilder json = new StringBuilder("{ \"batchSize\": " + batchSize + ", \"groups\": [");
        int[] ports = FreePorts.take(groups.size());
        for (int i = 0; i < groups.size(); i++) {
            json.append(i == 0 ? "" : ",")
                    .append("{ \"name\": \"")
                    .append(groups.get(i))
                    .append("\", \"endpoint\": \"127.0.0.1:")
                    .append(ports[i])
                    .append("\" }");
        }
        return json.append("] }").toString();
    }
}
