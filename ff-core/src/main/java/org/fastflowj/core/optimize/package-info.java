/**
 * The static optimizer (FastFlow's {@code ff/optimize.hpp}): rewrites a program before it runs so that it
 * needs fewer threads, for {@link org.fastflowj.core.RunOptions#optimize(org.fastflowj.core.OptLevel)}.
 *
 * <h2>Design note: on the block tree, before compilation</h2>
 *
 * The rewrites work on the building-block tree, not on the compiled graph. Every one of them ends in a
 * shape the library already runs and tests: a {@link org.fastflowj.core.Combiner} for fused stages
 * (whose seam already defines GO_ON, EOS, {@code eosNotify} and loop-head behaviour), a farm with a user
 * emitter or collector for a merged stage, a farm of combined workers for merged farms. The compiler then
 * derives channels, fan-in/fan-out, on-demand slots, order roles and feedback exactly as for a program
 * written that way, so the optimizer adds no run-time code and no new semantics to prove. Rewriting the
 * graph instead would mean re-deriving order roles, feedback channel indices and multi-input
 * numbering by hand for each rewrite.
 *
 * <p>The user's tree is never changed: rewrites copy blocks around the same nodes, and a block that is
 * not rewritten is reused as it is. A subtree holding a distributed group is run as written, so no
 * rewrite can move a node across a group boundary.
 *
 * <h2>Order</h2>
 *
 * <ol>
 *   <li>Structure (bottom-up, each pipeline after its stages): flatten nested pipelines; LEVEL2 merges
 *       neighbouring farms ({@code FarmMerges}); a sequential stage goes into the next farm's emitter; the
 *       stage after an ordered farm becomes its collector. None of these costs parallelism: they remove
 *       threads that only forwarded or that run in lock step with a neighbour.
 *   <li>Budget: while the graph has more threads than {@code maxThreads}, neighbouring sequential stages
 *       are fused into combiners, evenly ({@code StageFusion}).
 *   <li>If it still has more, the run waits with {@code BLOCKING}, so threads without work give their
 *       core away at once. If instead every thread has a CPU of its own, each is pinned to one ({@code
 *       threadMapping("auto")}), as FastFlow maps threads by default and drops the mapping only above
 *       {@code max_mapped_threads}: unpinned, Linux may keep two threads that feed each other on one CPU,
 *       where they take turns. A mapping the program chose is kept; a program with groups is not pinned
 *       (its processes may share the machine, and each would pick the same CPUs).
 * </ol>
 *
 * <p>Loops are left alone where the loop's ends would move: nothing is merged into the emitter of a farm
 * with feedback, and a wrapped pipeline keeps its farms and at least two stages.
 *
 * <p>Threading: runs on the thread that calls {@code run}, before any node thread starts.
 */
package org.fastflowj.core.optimize;
