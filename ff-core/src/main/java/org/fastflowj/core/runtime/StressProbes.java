package org.fastflowj.core.runtime;

import org.fastflowj.core.Node;
import org.fastflowj.core.WaitStrategy;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.runtime.channel.IdlePolicy;
import org.fastflowj.core.runtime.channel.OnDemandDispatch;
import org.fastflowj.core.runtime.channel.Parker;
import org.fastflowj.core.runtime.channel.SpscChannel;
import org.fastflowj.core.runtime.control.RunControl;
import org.fastflowj.core.runtime.control.RunHooks;
import org.fastflowj.core.runtime.node.NodeRunner;
import org.fastflowj.core.runtime.queue.ChannelQueue;
import org.fastflowj.core.runtime.queue.SpscQueues;

/**
 * The engine's concurrent pieces as ff-stress's jcstress tests race them from their own package: a
 * parker's announce-then-recheck, a channel queue's free-slot promise, a node runner's park state, a
 * channel's two ends and an on-demand dispatch. Everything ff-stress reaches of the engine is in this
 * file. Each method is the one call (or field access) the engine makes, nothing added, so an outcome
 * seen there is the engine's; the probes wrap the engine's objects once, when a test's state is built,
 * and the engine itself never goes through them. Not for user programs: {@code module-info} does not
 * export this package to them.
 *
 * <p>The runners, channels and dispatches are wired as {@code Executor} wires them, but no thread is
 * started: a test's actors play the node threads, so an unpark is a no-op and a test reads the park
 * state to see whether a wake-up happened.
 */
public final class StressProbes {
    /** What a consumer that has idled a while announces before it parks for an item. */
    public static final int LONG_INPUT_WAIT = Parker.WAIT_INPUT | Parker.LONG;
    /** What a node thread announces before it parks for an item. */
    public static final int WAIT_INPUT = Parker.WAIT_INPUT;
    /** What a node thread announces before it parks for room on an output. */
    public static final int WAIT_OUTPUT = Parker.WAIT_OUTPUT;

    private StressProbes() {}

    /** A parker as a node thread or an accelerator caller gets one. */
    public static Parker parker() {
        return Parker.create();
    }

    /** Announces a park of {@code kind} (opaque write, full fence), as a waiter does before its re-check. */
    public static void announce(Parker parker, int kind) {
        parker.announce(kind);
    }

    /** The parker's state, read as its wakers read it (volatile). */
    public static int state(Parker parker) {
        return parker.state;
    }

    /** A channel's bounded queue of {@code capacity} items, as the executor creates it. */
    public static ChannelQueueProbe channelQueue(int capacity) {
        return new ChannelQueueProbe(SpscQueues.channel(capacity));
    }

    /** A node runner (padded, as the executor creates it) of a one-node graph, with no thread. */
    public static RunnerProbe runner() {
        return new RunnerProbe(NodeRunner.create(
                RunnerProbe.VERTEX,
                RunnerProbe.CONTROL,
                RunnerProbe.IDLE,
                -1,
                false,
                NodeAccess.get().lifecycle()));
    }

    /** A bounded forward channel of {@code limit} items with no runner at either end. */
    public static ChannelProbe channel(int limit) {
        return new ChannelProbe(SpscChannel.bounded(limit, false, "stress"));
    }

    /**
     * A bounded forward channel of {@code limit} items from {@code producer} to {@code consumer}. Its
     * {@code wakeBatch} stays 1, as on on-demand slots and under {@code BLOCKING}: the producer looks at
     * the consumer's park state after every offer.
     */
    public static ChannelProbe channel(int limit, RunnerProbe producer, RunnerProbe consumer) {
        SpscChannel channel = SpscChannel.bounded(limit, false, "stress");
        channel.producer = producer.runner;
        channel.consumer = consumer.runner;
        return new ChannelProbe(channel);
    }

    /**
     * An on-demand dispatch as {@code Executor.dispatch} builds it: a staging channel of {@code
     * queueCapacity} per slot, produced by {@code producer}, handing out to {@code slots} (whose
     * consumers run it when their slot is empty).
     */
    public static DispatchProbe dispatch(RunnerProbe producer, int queueCapacity, ChannelProbe... slots) {
        SpscChannel staging = SpscChannel.bounded(queueCapacity * slots.length, false, "stress staging");
        staging.producer = producer.runner;
        SpscChannel[] slotChannels = new SpscChannel[slots.length];
        for (int k = 0; k < slots.length; k++) {
            slotChannels[k] = slots[k].channel;
        }
        OnDemandDispatch dispatch = new OnDemandDispatch(staging, slotChannels);
        for (SpscChannel slot : slotChannels) {
            slot.dispatch = dispatch;
        }
        return new DispatchProbe(dispatch, new ChannelProbe(staging));
    }

    /** A channel's queue, with the calls a channel's producer and consumer make on it. */
    public static final class ChannelQueueProbe {
        private final ChannelQueue queue;

        ChannelQueueProbe(ChannelQueue queue) {
            this.queue = queue;
        }

        public boolean offer(Object item) {
            return queue.offer(item);
        }

        public Object poll() {
            return queue.poll();
        }

        /** Producer only: whether {@code n} offers would all succeed now. */
        public boolean hasFreeSlots(int n) {
            return queue.hasFreeSlots(n);
        }
    }

    /** A node runner's park state, as its own thread writes it before a park and its neighbours read it. */
    public static final class RunnerProbe {
        /** Every runner is built from it: a runner reads only its name and node before it is wired. */
        private static final Vertex VERTEX = GraphCompiler.compile(Node.<Object, Object>of(x -> x))
                .vertices()
                .get(0);

        private static final RunControl CONTROL = new RunControl(RunHooks.NONE);
        private static final IdlePolicy IDLE = IdlePolicy.of(WaitStrategy.BACKOFF, false);

        private final NodeRunner runner;

        RunnerProbe(NodeRunner runner) {
            this.runner = runner;
        }

        /**
         * Waiter: the channel it is about to wait on ({@code null}: any input), written before the park
         * is announced, as {@code Parker.park} writes it.
         */
        public void waitTarget(ChannelProbe channel) {
            runner.waitTarget = channel == null ? null : channel.channel;
        }

        /** Waiter: announces a park of {@code kind} (opaque write, full fence) before its re-check. */
        public void announce(int kind) {
            runner.announce(kind);
        }

        /** The park state, read as its wakers read it (volatile). */
        public int state() {
            return runner.state;
        }
    }

    /**
     * One edge between two runners, with the calls each end makes on it. Threading as in the engine:
     * {@code offer} and {@code producerMayResume} by the producer, {@code poll} by the consumer, the rest
     * by either.
     */
    public static final class ChannelProbe {
        private final SpscChannel channel;

        ChannelProbe(SpscChannel channel) {
            this.channel = channel;
        }

        /** Producer: false when the channel is at its limit. */
        public boolean offer(Object item) {
            return channel.offer(item);
        }

        /** Consumer: null when empty. */
        public Object poll() {
            return channel.poll();
        }

        /** Either side: whether an item is queued (read from the head slot). */
        public boolean hasItems() {
            return channel.hasItems();
        }

        /** The producer's end mark (volatile read). */
        public boolean producerDone() {
            return channel.producerDone;
        }

        /** The consumer's end mark (volatile read). */
        public boolean consumerGone() {
            return channel.consumerGone;
        }

        /** Producer, after the channel was full: drained to the low-water mark. */
        public boolean producerMayResume() {
            return channel.producerMayResume();
        }

        /** Producer, its consumer parked: enough items queued to wake it for. */
        public boolean worthWaking() {
            return channel.worthWaking();
        }

        /** Producer, after an offer: the consumer's park state, read as {@code OutputChannels} reads it. */
        public int consumerState() {
            return channel.consumer.state;
        }

        /** Producer, after an offer: wakes the consumer if it waits for this channel's items. */
        public void wakeConsumerForItem() {
            channel.consumer.wakeForItem(channel);
        }

        /** Consumer, after a poll: the producer's park state, read as {@code InputChannels} reads it. */
        public int producerState() {
            return channel.producer.state;
        }

        /** Consumer, after a poll: wakes the producer if it waits for room here and enough drained. */
        public void wakeProducerForRoom() {
            channel.producer.wakeForRoom(channel);
        }
    }

    /** An on-demand dispatch, with the calls its producer and its consumers make on it. */
    public static final class DispatchProbe {
        private final OnDemandDispatch dispatch;
        private final ChannelProbe staging;

        DispatchProbe(OnDemandDispatch dispatch, ChannelProbe staging) {
            this.dispatch = dispatch;
            this.staging = staging;
        }

        /** The staging channel: the producer offers to it, the role's holder polls it. */
        public ChannelProbe staging() {
            return staging;
        }

        /**
         * Hands staged items out unless another thread holds the role; {@code caller} is the consumer
         * running it, {@code null} for the producer. True if this call placed anything.
         */
        public boolean run(RunnerProbe caller) {
            return dispatch.run(caller == null ? null : caller.runner);
        }

        /** Producer, after staging an item: hands out at once if a consumer waits. */
        public void afterSubmit() {
            dispatch.afterSubmit();
        }

        /** Whether a round could hand something out (an item staged or an end owed). */
        public boolean hasWork() {
            return dispatch.hasWork();
        }

        /** The role: 1 while a thread hands out, 0 when free (volatile read). */
        public int role() {
            return dispatch.role;
        }
    }
}
