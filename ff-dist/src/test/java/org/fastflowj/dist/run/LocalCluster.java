package org.fastflowj.dist.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.SerializationConfig;
import org.fastflowj.dist.apps.ProcessCluster;

/**
 * Runs every group of one program in this JVM, each on its own {@link GroupRun} with its own transport
 * on a free loopback port: the same code path as separate processes, minus the process start (the
 * multi-process tests cover that). Each group compiles the tree itself and runs only its own nodes, so
 * one tree serves all of them, and a sink's results can be read directly.
 */
public final class LocalCluster {
    private LocalCluster() {}

    /** A config for {@code groups} on free loopback ports; {@code topLevel} is extra JSON ("k": v, ...). */
    public static DffConfig config(List<String> groups, String topLevel) {
        return DffConfig.parse(ProcessCluster.configJson(groups, topLevel), "test.json");
    }

    public static int freePort() {
        return ProcessCluster.freePort();
    }

    /** Runs every group of {@code config} and waits for all; throws the first failure, by group. */
    public static void run(BuildingBlock root, DffConfig config, long timeoutSeconds) throws Exception {
        run(root, config, SerializationConfig.builder().build(), RunOptions.defaults(), timeoutSeconds);
    }

    public static void run(
            BuildingBlock root,
            DffConfig config,
            SerializationConfig serialization,
            RunOptions options,
            long timeoutSeconds)
            throws Exception {
        Map<String, Throwable> failures = runCollecting(root, config, serialization, options, timeoutSeconds);
        if (!failures.isEmpty()) {
            Map.Entry<String, Throwable> first = failures.entrySet().iterator().next();
            StringBuilder all = new StringBuilder();
            failures.forEach(
                    (g, t) -> all.append("\n  group ").append(g).append(": ").append(t));
            throw new AssertionError("groups failed:" + all, first.getValue());
        }
    }

    /** Runs every group and returns each group's failure (empty when all ended normally). */
    public static Map<String, Throwable> runCollecting(
            BuildingBlock root,
            DffConfig config,
            SerializationConfig serialization,
            RunOptions options,
            long timeoutSeconds)
            throws InterruptedException {
        return runCollecting(root, config, g -> config, serialization, options, timeoutSeconds);
    }

    /** As above, with each group's own config ({@code configOf}; they must agree on groups and endpoints). */
    public static Map<String, Throwable> runCollecting(
            BuildingBlock root,
            DffConfig config,
            Function<String, DffConfig> configOf,
            SerializationConfig serialization,
            RunOptions options,
            long timeoutSeconds)
            throws InterruptedException {
        List<String> groups = config.groups().stream().map(g -> g.name()).toList();
        ExecutorService pool = Executors.newFixedThreadPool(groups.size());
        Map<String, Future<?>> runs = new LinkedHashMap<>();
        List<Execution> executions = new ArrayList<>();
        try {
            for (String g : groups) {
                DFF.Settings settings = new DFF.Settings(g, configOf.apply(g), serialization, false);
                runs.put(g, pool.submit(() -> {
                    Execution ex = GroupRun.start(GraphCompiler.compile(root), options, settings);
                    synchronized (executions) {
                        executions.add(ex);
                    }
                    ex.await();
                    return null;
                }));
            }
            Map<String, Throwable> failures = new LinkedHashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
            for (Map.Entry<String, Future<?>> run : runs.entrySet()) {
                try {
                    run.getValue().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    failures.put(run.getKey(), e.getCause());
                } catch (TimeoutException e) {
                    failures.put(
                            run.getKey(),
                            new AssertionError(
                                    "group " + run.getKey() + " still running after " + timeoutSeconds + " s"));
                }
            }
            return failures;
        } finally {
            synchronized (executions) {
                executions.forEach(Execution::cancel);
            }
            pool.shutdownNow();
            pool.awaitTermination(15, TimeUnit.SECONDS);
        }
    }
}
