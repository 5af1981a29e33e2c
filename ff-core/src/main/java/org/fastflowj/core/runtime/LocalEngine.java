package org.fastflowj.core.runtime;

import java.util.concurrent.TimeUnit;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Node;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.RunStats;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.GraphDot;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.metrics.RunMetrics;
import org.fastflowj.core.optimize.Optimizer;
import org.fastflowj.core.runtime.control.RunHooks;
import org.fastflowj.core.spi.AcceleratorEnds;
import org.fastflowj.core.spi.Engine;
import org.fastflowj.core.spi.EngineRun;
import org.fastflowj.core.spi.NodeLifecycle;
import org.fastflowj.core.spi.Placement;

/**
 * The engine behind {@link BuildingBlock#run}: optimizer, graph compiler, executor (or an installed
 * {@link GraphRunner}) and metrics, in that order. The API package loads it through {@link
 * java.util.ServiceLoader}; public only because a class-path service provider must be.
 */
public final class LocalEngine implements Engine<BuildingBlock, RunOptions, RunStats, Node<?, ?>> {
    @Override
    public void attach(NodeLifecycle<Node<?, ?>> lifecycle) {
        NodeAccess.install(lifecycle);
    }

    @Override
    public EngineRun<RunStats> start(BuildingBlock block, RunOptions options, Placement placement) {
        if (placement == Placement.ANY_RUNNER) {
            GraphRunners.placeGroups(block);
        }
        Optimizer.Plan plan = Optimizer.plan(block, options);
        Graph graph = GraphCompiler.compile(plan.block());
        RunMetrics shown = RunMetrics.open(options.jmx(), options.uiPort());
        GraphRun execution;
        try {
            if (plan.options().checkpointInterval() != null) {
                Execution group = hasGroups(graph) ? GraphRunners.startGroupOnly(graph, plan.options()) : null;
                execution = group != null ? group : CheckpointedRun.start(graph, plan.options(), RunHooks.NONE);
            } else {
                execution = switch (placement) {
                    case ANY_RUNNER -> GraphRunners.start(graph, plan.options());
                    case IN_PROCESS -> Executor.start(graph, plan.options());
                    case OWN_GROUP_OR_IN_PROCESS -> GraphRunners.startGroupOrWhole(graph, plan.options());
                };
            }
        } catch (RuntimeException e) {
            shown.close();
            throw e;
        }
        // Shown only once started, but opened before, so a busy port started nothing.
        try {
            shown.show(graph, execution::stats, execution::await);
        } catch (RuntimeException e) {
            shown.close();
            execution.cancel();
            throw e;
        }
        return new StartedRun(execution, shown);
    }

    private static boolean hasGroups(Graph graph) {
        for (Vertex v : graph.vertices()) {
            if (v.group() != null) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toDot(BuildingBlock block, RunOptions options) {
        GraphRunners.placeGroups(block);
        Optimizer.Plan plan = Optimizer.plan(block, options);
        Graph graph = GraphCompiler.compile(plan.block());
        String title = block + ": " + graph.vertices().size() + " threads, optimize " + options.optLevel() + ", wait "
                + plan.options().waitStrategy();
        return GraphDot.render(graph, title);
    }

    @Override
    public AcceleratorEnds<Node<?, ?>> acceleratorEnds(RunOptions options) {
        return new AcceleratorStages(options.queueCapacity(), options.waitStrategy());
    }

    /** A run and the metrics server showing it, until {@code waitEnd} or the run's end takes it down. */
    private record StartedRun(GraphRun execution, RunMetrics shown) implements EngineRun<RunStats> {
        @Override
        public void await() {
            execution.await();
        }

        @Override
        public boolean await(long timeout, TimeUnit unit) {
            return execution.await(timeout, unit);
        }

        @Override
        public boolean isDone() {
            return execution.isDone();
        }

        @Override
        public boolean isStopped() {
            return execution.isStopped();
        }

        @Override
        public void cancel() {
            execution.cancel();
        }

        @Override
        public RunStats stats() {
            return execution.stats();
        }

        @Override
        public int uiPort() {
            return shown.port();
        }

        @Override
        public void closeMetrics() {
            shown.close();
        }
    }
}
