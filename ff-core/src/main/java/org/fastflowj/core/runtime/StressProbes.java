package org.fastflowj.core.runtime;

/**
 * The engine's wait and queue primitives as ff-stress's jcstress tests race them from their own
 * package: a parker's announce-then-recheck and a channel queue's free-slot promise. Each method is the
 * one call the engine makes, nothing added, so an outcome seen here is the engine's. Not for user
 * programs: {@code module-info} does not export this package to them.
 */
public final class StressProbes {
    /** What a consumer that has idled a while announces before it parks for an item. */
    public static final int LONG_INPUT_WAIT = Parker.WAIT_INPUT | Parker.LONG;

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
}
