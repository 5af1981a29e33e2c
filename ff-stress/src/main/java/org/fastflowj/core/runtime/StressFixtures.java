package org.fastflowj.core.runtime;

import org.fastflowj.core.Node;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.spi.Sentinel;

/**
 * The run-time's own objects for the stress tests, wired the way {@link Executor} wires them, but with
 * no thread started: a test's actors play the node threads, calling the same methods the runners call.
 *
 * <p>This module puts its tests in {@code org.fastflowj.core.runtime} (a package split across the
 * ff-core and ff-stress jars, fine on the class path) so they reach the package-private classes without
 * anything in ff-core being opened for them.
 */
final class StressFixtures {
    /** A one-node graph's vertex: every runner is built from it (a runner only reads its name and node). */
    private static final Vertex VERTEX =
            GraphCompiler.compile(Node.<Object, Object>of(x -> x)).vertices().get(0);

    private static final RunControl CONTROL = new RunControl(RunHooks.NONE);
    private static final IdlePolicy IDLE = IdlePolicy.of(WaitStrategy.BACKOFF, false);

    private StressFixtures() {}

    /** A real runner (padded, as the executor creates it): its park state is what the tests race on. */
    static NodeRunner runner() {
        return NodeRunner.create(VERTEX, CONTROL, IDLE, -1, false);
    }

    /**
     * A bounded forward channel of {@code limit} items between two runners. Its {@code wakeBatch} stays
     * 1, as on on-demand slots (limit / 4 rounds down to 0) and under BLOCKING: the producer looks at
     * the consumer's park state after every offer.
     */
    static SpscChannel channel(int limit, NodeRunner producer, NodeRunner consumer) {
        SpscChannel ch = SpscChannel.bounded(limit, false, "stress");
        ch.producer = producer;
        ch.consumer = consumer;
        return ch;
    }

    /**
     * An on-demand dispatch as {@code Executor.dispatch} builds it: a staging channel of
     * {@code queueCapacity} per slot, produced by {@code producer}, handing out to {@code slots}.
     */
    static OnDemandDispatch dispatch(NodeRunner producer, int queueCapacity, SpscChannel... slots) {
        SpscChannel staging = SpscChannel.bounded(queueCapacity * slots.length, false, "stress staging");
        staging.producer = producer;
        OnDemandDispatch dispatch = new OnDemandDispatch(staging, slots);
        for (SpscChannel slot : slots) {
            slot.dispatch = dispatch;
        }
        return dispatch;
    }

    /**
     * What a channel holds, drained in order, for an outcome: items as their values, end-of-stream as
     * {@code E}, an empty channel as {@code -}. Arbiter only (it polls, as the consumer).
     */
    static String drain(SpscChannel ch) {
        StringBuilder sb = new StringBuilder();
        for (Object item = ch.poll(); item != null; item = ch.poll()) {
            sb.append(item == Sentinel.EOS ? "E" : String.valueOf(item));
        }
        return sb.length() == 0 ? "-" : sb.toString();
    }
}
