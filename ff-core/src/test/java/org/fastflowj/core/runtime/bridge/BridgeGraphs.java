package org.fastflowj.core.runtime.bridge;

import java.util.List;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.EngineTask;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.GraphCut;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;

/** Test fixture: one group's graph of a grouped program, its bridges the given tasks (null: none expected). */
public final class BridgeGraphs {
    private BridgeGraphs() {}

    static Graph group(BuildingBlock root, String group, BridgeTask sender, BridgeTask receiver) {
        Graph whole = GraphCompiler.compile(root);
        return GraphCut.forGroup(whole, group, new GraphCut.BridgeFactory() {
            @Override
            public EngineTask sender(String peer, List<Edge> forward, List<Edge> feedback) {
                if (sender == null) {
                    throw new AssertionError("group " + group + " was not expected to send to " + peer);
                }
                return sender;
            }

            @Override
            public EngineTask receiver(String peer, List<Edge> forward, List<Edge> feedback) {
                if (receiver == null) {
                    throw new AssertionError("group " + group + " was not expected to hear from " + peer);
                }
                return receiver;
            }
        });
    }

    /** Runs the graph to its end (failing with the run's failure). */
    static RunStatsView run(Graph graph, org.fastflowj.core.RunOptions options) {
        Execution execution = Executor.start(graph, options);
        execution.await();
        return new RunStatsView(execution);
    }

    /** The statistics of a finished run. */
    record RunStatsView(Execution execution) {
        org.fastflowj.core.NodeStats node(String name) {
            return execution.stats().nodes().stream()
                    .filter(n -> n.name().equals(name))
                    .findFirst()
                    .orElseThrow();
        }
    }
}
