package org.fastflowj.core.optimize;

import java.util.List;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.GraphBuildException;
import org.fastflowj.core.OptLevel;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.GraphCompiler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * FastFlow's static optimizer ({@code ff/optimize.hpp}) for FastFlow-J: turns the tree a program was
 * written as into the tree it runs as, for {@link RunOptions#optimize(OptLevel)}. See the package note
 * for the order of the rewrites and why they work on the tree.
 */
public final class Optimizer {
    /**
     * Made on first use: a run that logs nothing never starts the logging backend, which costs a fresh
     * JVM about 45 ms.
     */
    private static final class Log {
        static final Logger LOG = LoggerFactory.getLogger(Optimizer.class);
    }

    private Optimizer() {}

    /**
     * What will run: the block (the user's own when nothing was rewritten), the options (with
     * {@link WaitStrategy#BLOCKING} when threads still outnumber the budget, else with each thread pinned
     * to a CPU of its own unless the program chose a mapping or holds distributed groups, whose processes
     * may share a machine), and one line per rewrite.
     */
    public record Plan(BuildingBlock block, RunOptions options, List<String> rewrites) {}

    /**
     * Plans the run of {@code root}.
     *
     * @throws GraphBuildException if {@code root} is not a legal program (checked before any rewrite,
     *     so the message names the blocks as written)
     */
    public static Plan plan(BuildingBlock root, RunOptions options) {
        OptLevel level = options.optLevel();
        if (level == OptLevel.NONE) {
            return new Plan(root, options, List.of());
        }
        int threads = threads(root);
        RewriteLog log = new RewriteLog();
        int budget = options.maxThreads();
        BuildingBlock block;
        int after;
        try {
            block = new StructuralRewrites(level == OptLevel.LEVEL2, log).rewrite(root);
            int afterStructure = threads(block);
            if (afterStructure > budget) {
                block = new StageFusion(afterStructure - budget, log).fuse(block);
            }
            after = threads(block);
        } catch (GraphBuildException e) {
            // The program as written compiled, so this is a rewrite the compiler refuses: run it as written.
            Log.LOG.warn(
                    "optimizer: {} runs as written: a rewrite gave a graph the compiler refuses ({})",
                    root,
                    e.getMessage());
            return new Plan(root, options, List.of());
        }
        RunOptions planned = options;
        if (after > budget && options.waitStrategy() != WaitStrategy.BLOCKING) {
            log.say(
                    "%d threads after rewriting, over the budget of %d: %s waits with BLOCKING instead of %s",
                    after, budget, root, options.waitStrategy());
            planned = options.waitStrategy(WaitStrategy.BLOCKING);
        } else if (after <= Math.min(budget, Runtime.getRuntime().availableProcessors())
                && !options.threadMappingGiven()
                && !Trees.hasGroups(root)) {
            // FastFlow's default mapping, kept while every thread has a CPU of its own (optimize.hpp drops it
            // above max_mapped_threads): unpinned, two threads that hand items to each other may share a
            // CPU and take turns (see runtime.Affinity).
            log.say("%s: %d threads, each pinned to a CPU of its own", root, after);
            planned = options.threadMapping("auto");
        }
        if (after != threads) {
            log.say("%s: %d threads instead of %d", root, after, threads);
        }
        return new Plan(block, planned, log.lines());
    }

    private static int threads(BuildingBlock block) {
        return GraphCompiler.compile(block).vertices().size();
    }
}
