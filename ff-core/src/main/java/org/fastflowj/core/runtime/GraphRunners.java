package org.fastflowj.core.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.Graph;

/** Starts a graph with the first {@link GraphRunner} that takes it, else with the {@link Executor}. */
public final class GraphRunners {
    private static final List<GraphRunner> RUNNERS = load();

    private GraphRunners() {}

    /** Lets every runner give {@code root} the groups its settings define ({@link GraphRunner#placeGroups}). */
    public static void placeGroups(BuildingBlock root) {
        for (GraphRunner runner : RUNNERS) {
            runner.placeGroups(root);
        }
    }

    public static Execution start(Graph graph, RunOptions options) {
        for (GraphRunner runner : RUNNERS) {
            Execution execution = runner.start(graph, options);
            if (execution != null) {
                return execution;
            }
        }
        return Executor.start(graph, options);
    }

    /** This process's group of {@code graph} if it runs as one ({@link GraphRunner#startGroup}), else all of it. */
    public static Execution startGroupOrWhole(Graph graph, RunOptions options) {
        for (GraphRunner runner : RUNNERS) {
            Execution execution = runner.startGroup(graph, options);
            if (execution != null) {
                return execution;
            }
        }
        return Executor.start(graph, options);
    }

    /**
     * This process's group of {@code graph} if it runs as one, or null: a graph with checkpoints that runs
     * whole takes them in this process.
     */
    public static Execution startGroupOnly(Graph graph, RunOptions options) {
        for (GraphRunner runner : RUNNERS) {
            Execution execution = runner.startGroup(graph, options);
            if (execution != null) {
                return execution;
            }
        }
        return null;
    }

    private static List<GraphRunner> load() {
        List<GraphRunner> runners = new ArrayList<>();
        for (GraphRunner r : ServiceLoader.load(GraphRunner.class, GraphRunner.class.getClassLoader())) {
            runners.add(r);
        }
        return List.copyOf(runners);
    }
}
