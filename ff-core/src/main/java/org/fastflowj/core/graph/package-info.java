/**
 * The concurrency graph and its compiler. {@link org.fastflowj.core.graph.GraphCompiler} flattens a
 * building-block tree into {@link org.fastflowj.core.graph.Vertex vertices} (one per thread) and
 * {@link org.fastflowj.core.graph.Edge edges} (one per SPSC channel), applies the composition rules and
 * validates the tree; nothing downstream knows what a farm or a pipeline was. Single-threaded: the
 * graph is built before any node thread starts and never changes afterwards.
 *
 * <p>Each block compiles to a fragment: the vertices that take its input (entries) and those that
 * produce its output (exits). {@code GraphCompiler.connect} joins exits to entries: one edge per pair for
 * fan-in and fan-out, one-to-one for equal widths above 1, a full shuffle otherwise or when both sides
 * choose their channels. A wrapped-around block sends its default output back, and feeds a next stage
 * only if its exits are {@code MultiOutputNode}s. A farm gets a forwarding emitter ({@code
 * DefaultNodes.Forward}) when it has an input and no emitter, and one as collector when it is ordered and
 * has none; its vertices get an {@link org.fastflowj.core.graph.Vertex.OrderRole}. An edge is {@code
 * FORWARD}, {@code FEEDBACK} or {@code ORDER}, with {@code slots} for on-demand slots or an ordered
 * farm's bound (0: the run's capacity). An illegal tree throws {@code GraphBuildException} here.
 *
 * <p>Groups: {@code GroupLayout} checks a program's groups against the distributed paper's rules
 * ({@code FarmGroups} for farm workers in groups of their own) and records each vertex's group; {@code
 * GraphCut} cuts the graph down to one group, its cut edges ending at bridge vertices; {@code RecoverableFarm} and {@code
 * RecoverableAllToAll} record the edges a recoverable block may lose.
 */
package org.fastflowj.core.graph;
