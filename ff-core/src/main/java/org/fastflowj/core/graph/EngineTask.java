package org.fastflowj.core.graph;

/**
 * What a bridge vertex runs instead of a node: a task of the engine itself (ff-dist's network ends, which
 * stand for the other groups of a distributed program), made by a {@link GraphCut.BridgeFactory}. The
 * graph only carries it; the run-time knows its real type ({@code core.runtime.bridge.BridgeTask}).
 */
public interface EngineTask {}
