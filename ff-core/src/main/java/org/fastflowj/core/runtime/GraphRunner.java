package org.fastflowj.core.runtime;

import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.Graph;

/**
 * Another way to run a compiled graph, found with {@link java.util.ServiceLoader}: ff-dist's runner
 * runs only this process's distributed group. Every {@code BuildingBlock.run} asks the runners on the
 * class path in turn; the first that returns an execution runs the graph, and when none does (no
 * runner, or no group selected) the shared-memory {@link Executor} runs it whole.
 *
 * <p>Threading: called on the thread that calls {@code run}.
 */
public interface GraphRunner {
    /**
     * Gives {@code root} the groups this runner's settings define for it, before the tree is planned and
     * compiled: ff-dist's from a config that lists the blocks of each group, so that a program whose blocks
     * are named becomes distributed without calling {@code createGroup}. A tree a library runs in its own
     * process only is never given any.
     */
    default void placeGroups(BuildingBlock root) {}

    /** Starts {@code graph}, or returns null to leave it to the shared-memory executor. */
    Execution start(Graph graph, RunOptions options);

    /**
     * Starts only this process's group of {@code graph} when this process runs as a group of a program
     * with groups; else null, and the shared-memory executor runs it whole, untouched (no item checks):
     * for a pattern whose items are shared objects in one process and cross groups only between groups.
     */
    default Execution startGroup(Graph graph, RunOptions options) {
        return null;
    }
}
