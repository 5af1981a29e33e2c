/**
 * The concurrency graph and its compiler. {@link org.fastflowj.core.graph.GraphCompiler} flattens a
 * building-block tree into {@link org.fastflowj.core.graph.Vertex vertices} (one per thread) and
 * {@link org.fastflowj.core.graph.Edge edges} (one per SPSC channel), applies the composition rules and
 * validates the tree; nothing downstream knows what a farm or a pipeline was. Single-threaded: the
 * graph is built before any node thread starts and never changes afterwards.
 */
package org.fastflowj.core.graph;
