package org.fastflowj.core.graph;

import java.util.List;

/**
 * A {@link org.fastflowj.core.Farm#recoverable() recoverable} farm as compiled: per worker {@code i}, the
 * edge that takes it its items ({@code dispatch.get(i)}, from the emitter) and the edge that takes its
 * outputs back ({@code returns.get(i)}, to the collector, or to the emitter as feedback). Outputs on
 * {@code returns.get(i)} answer the items on {@code dispatch.get(i)} one for one, in order: the workers are
 * chains of one-output-per-item nodes, so output {@code k} of worker {@code i} is its answer to item
 * {@code k}.
 *
 * @param emitter the farm's emitter, which sends a lost worker's items again
 * @param dispatch per worker, the emitter's edge to it (the emitter's forward output {@code i})
 * @param returns per worker, the edge its outputs leave on
 */
public record RecoverableFarm(Vertex emitter, List<Edge> dispatch, List<Edge> returns) {
    public RecoverableFarm {
        dispatch = List.copyOf(dispatch);
        returns = List.copyOf(returns);
        if (dispatch.size() != returns.size()) {
            throw new IllegalArgumentException(
                    dispatch.size() + " dispatch edges but " + returns.size() + " return edges");
        }
    }

    /** The worker whose dispatch edge this is, or -1. */
    public int workerFed(Edge edge) {
        return dispatch.indexOf(edge);
    }

    /** The worker whose return edge this is, or -1. */
    public int workerReturning(Edge edge) {
        return returns.indexOf(edge);
    }
}
