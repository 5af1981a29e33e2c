package org.fastflowj.core.runtime.channel;

import java.lang.invoke.VarHandle;
import org.fastflowj.core.runtime.queue.ChannelQueue;
import org.fastflowj.core.runtime.queue.SpscQueues;
import org.jctools.queues.MessagePassingQueue;

/**
 * One edge of the graph: a JCTools single-producer single-consumer queue plus the two threads at its
 * ends, so each side can wake the other. Exactly one thread offers and exactly one thread polls.
 *
 * <p>Threading: {@code offer}/{@code producerMayResume} by the producer, {@code poll} by the consumer, the rest by
 * either. {@code consumerGone} and {@code producerDone} are written once, by their owner, and read by the
 * other side in its slow paths; {@code intake} is the consumer's own, {@code outflow} the producer's.
 */
public final class SpscChannel {
    private static final int UNBOUNDED_CHUNK = 1024;

    public final MessagePassingQueue<Object> queue;
    /** Items the producer may have queued: the run's capacity, a farm's on-demand slots, or a staging channel's. */
    public final int limit;
    /**
     * The consumer wakes a producer blocked on this channel once it holds at most this many queue slots (items,
     * or chunks of a gathering channel).
     */
    final int lowWater;
    /** Gathers items into chunks (the consumer is a bridge), or null: one item per slot. */
    public final ChannelGathering gathering;
    /** A producer wakes a consumer parked on this channel once it holds this many items (or it idles). */
    public int wakeBatch = 1;

    private final boolean softLimit;
    /** The bounded queue, or null for an unbounded channel. */
    private final ChannelQueue bounded;
    /** Free slots meaning "below the limit" (the array may be larger: JCTools rounds to a power of two). */
    private final int freeForOne;
    /** Free slots meaning "drained to the low-water mark". */
    private final int freeToResume;

    public final boolean feedback;
    final String description;

    /** For an on-demand slot filled by a {@link OnDemandDispatch}: that dispatch, which its consumer runs. */
    public OnDemandDispatch dispatch;

    public ChannelEnd producer;
    public ChannelEnd consumer;
    /** The consumer ended: items offered from now on are dropped. */
    public volatile boolean consumerGone;
    /** The producer ended: nothing more will be offered. */
    public volatile boolean producerDone;
    /** Consumer-local: whether the consumer takes from this channel. */
    public Intake intake = Intake.OPEN;
    /** Producer-local: whether the producer still sends on this channel. */
    public Outflow outflow = Outflow.OPEN;

    /** The consumer's side of a channel, as its consumer sees it. */
    public enum Intake {
        /** Items are taken. */
        OPEN,
        /**
         * The node asked to read its other inputs first ({@link org.fastflowj.core.runtime.node.InputChannels#hold}): nothing is taken
         * until it lets go, or until no other input could give it anything.
         */
        HELD,
        /** A checkpoint's barrier was taken: nothing more until the node's other inputs' barriers ({@link org.fastflowj.core.runtime.node.BarrierAlignment}). */
        BLOCKED,
        /** EOS was taken (or the node ended its stream): nothing more is taken. Final. */
        ENDED
    }

    /** The producer's side of a channel, as its producer sees it. */
    public enum Outflow {
        /** Items are sent. */
        OPEN,
        /** A bridge ended this channel itself ({@link org.fastflowj.core.runtime.bridge.BridgeChannels#tryEndOutput}): its EOS went out. */
        ENDED,
        /** The producer noticed {@link #consumerGone}: items are dropped. Final. */
        GONE
    }

    /**
     * Consumer only, after its {@code takes}-th take since it started counting: wakes the producer if it
     * parked on this channel for room. A producer parks until half the channel drained, so on a long channel
     * looking every 16 takes is soon enough and keeps the volatile read off most items; a short (on-demand)
     * channel is looked at every time.
     */
    public void tookOne(int takes) {
        if ((takes & 15) == 0 || limit <= IdlePolicy.SHORT_CHANNEL) {
            if ((takes & 63) == 0) {
                VarHandle.fullFence(); // bounds the missed-wake-up race, see Parker
            }
            wakeProducerIfRoom();
        }
    }

    /**
     * Consumer only, before it parks (after its full fence): wakes the producer if it parked on this
     * channel for room that is there now.
     */
    void wakeProducerIfRoom() {
        Parker p = producer;
        if (Parker.waitsForRoom(p.state)) {
            p.wakeForRoom(this);
        }
    }

    /**
     * Producer only, after its {@code puts}-th offer since it started counting: wakes the consumer if it
     * parked on this channel. The park state is read on every item (a load of a line that changes only
     * around a park): a short park waits for a batch ({@link #wakeBatch}), a long one (announced after a
     * wait's first park timed out) for any item, so the first item after a pause goes straight through.
     * One offer in 64 fences first, which bounds the race {@link Parker} describes; returns whether this
     * one did (the producer may then look at {@link #consumerGone}).
     */
    public boolean offered(int puts) {
        boolean fenced = (puts & 63) == 0;
        if (fenced) {
            VarHandle.fullFence();
        }
        Parker c = consumer;
        int s = c.state;
        if (s != Parker.RUNNING
                && (s == (Parker.WAIT_INPUT | Parker.LONG) || (s == Parker.WAIT_INPUT && worthWaking()))) {
            c.wakeForItem(this);
        }
        return fenced;
    }

    /**
     * Producer only, after it found this channel full: whether it may offer again. With hysteresis (see
     * {@link IdlePolicy}) a long channel must first drain to the low-water mark, so the producer wakes
     * once per half channel, not once per free slot.
     */
    public boolean mayRefill(boolean hysteresis) {
        return !hysteresis || limit <= IdlePolicy.SHORT_CHANNEL || producerMayResume();
    }

    /** Producer only: the re-check of a park for room here (room to resume, or nobody left to send to). */
    public boolean roomOrGone() {
        return producerMayResume() || consumerGone;
    }

    /**
     * Producer only, before it parks (after its full fence): wakes the consumer if it parked with items
     * queued here.
     */
    void wakeConsumerIfItems() {
        Parker c = consumer;
        if (Parker.waitsForInput(c.state) && hasItems()) {
            c.wakeForItem(this);
        }
    }

    /** Consumer only: items may be taken (EOS not taken yet, not blocked for a checkpoint, not held). */
    public boolean taking() {
        return intake == Intake.OPEN;
    }

    /** Consumer only: EOS was taken from this channel. */
    public boolean endTaken() {
        return intake == Intake.ENDED;
    }

    /** Producer only: the producer noticed its consumer gone. */
    public boolean goneSeen() {
        return outflow == Outflow.GONE;
    }

    private SpscChannel(MessagePassingQueue<Object> queue, int limit, boolean feedback, String description) {
        this(queue, limit, limit, null, feedback, description);
    }

    /** {@code slots}: the queue slots the producer may fill, {@code limit} or fewer when gathering. */
    private SpscChannel(
            MessagePassingQueue<Object> queue,
            int limit,
            int slots,
            ChannelGathering gathering,
            boolean feedback,
            String description) {
        this.queue = queue;
        this.bounded = queue instanceof ChannelQueue q ? q : null;
        this.limit = limit;
        this.gathering = gathering;
        this.softLimit = slots != Integer.MAX_VALUE && slots != queue.capacity();
        this.lowWater = slots == Integer.MAX_VALUE ? Integer.MAX_VALUE : slots / 2;
        int capacity = queue.capacity();
        this.freeForOne = capacity - slots + 1;
        this.freeToResume = capacity - lowWater;
        this.feedback = feedback;
        this.description = description;
    }

    public static SpscChannel bounded(int capacity, boolean feedback, String description) {
        return new SpscChannel(SpscQueues.channel(Math.max(capacity, 4)), capacity, feedback, description);
    }

    public static SpscChannel unbounded(boolean feedback, String description) {
        return new SpscChannel(SpscQueues.unbounded(UNBOUNDED_CHUNK), Integer.MAX_VALUE, feedback, description);
    }

    /**
     * A channel into a bridge that gathers items into chunks of {@code chunkCapacity}, at most {@code limit}
     * items in its queue as for a plain channel ({@code limit / chunkCapacity} chunks), plus the chunk being
     * filled; {@code limit} is {@code Integer.MAX_VALUE} for an unbounded one.
     */
    public static SpscChannel gathering(int limit, int chunkCapacity, String description) {
        ChannelGathering gathering = new ChannelGathering(chunkCapacity);
        if (limit == Integer.MAX_VALUE) {
            return new SpscChannel(
                    SpscQueues.unbounded(UNBOUNDED_CHUNK / 8), limit, limit, gathering, false, description);
        }
        int slots = Math.max(2, limit / chunkCapacity);
        return new SpscChannel(SpscQueues.channel(Math.max(slots, 4)), limit, slots, gathering, false, description);
    }

    /** Producer only. False when full (never for an unbounded channel). */
    public boolean offer(Object item) {
        return gathering == null ? offerSlot(item) : gathering.offer(this, item);
    }

    /** Producer only: the item (or a gathered chunk) in a slot of its own; false when full. */
    boolean offerSlot(Object item) {
        return (!softLimit || bounded.hasFreeSlots(freeForOne)) && queue.offer(item);
    }

    /** Producer only: whether an offer would find room now (always for an unbounded channel). */
    public boolean hasRoom() {
        return bounded == null || bounded.hasFreeSlots(freeForOne);
    }

    /** Consumer only. Null when empty. */
    public Object poll() {
        return gathering == null ? queue.poll() : gathering.poll(queue);
    }

    /**
     * Whether an item is queued; safe from either side. A bounded channel answers from the head slot
     * rather than the producer index, so a consumer asking in a loop does not pull the cache line the
     * producer writes on every offer (its buffer never changes, so any thread may read a slot). An
     * unbounded (linked-array) channel answers from the indices: its peek may follow a chunk link and
     * move the consumer's buffer, which only the consumer may do.
     */
    public boolean hasItems() {
        boolean queued = bounded != null ? bounded.relaxedPeek() != null : !queue.isEmpty();
        return queued || (gathering != null && gathering.hasUntaken());
    }

    /**
     * Producer side, after the channel was full: drained to the low-water mark, so worth filling again
     * (see {@link ChannelQueue#hasFreeSlots} for why this does not read the consumer index).
     */
    public boolean producerMayResume() {
        return bounded == null || bounded.hasFreeSlots(freeToResume);
    }

    /** Producer side, consumer parked (so the index it reads is quiet): enough items to wake it for. */
    public boolean worthWaking() {
        if (wakeBatch <= 1) {
            return true;
        }
        return gathering == null ? queue.size() >= wakeBatch : gathering.waiting(queue.size()) >= wakeBatch;
    }

    /** Consumer side, producer parked (so the index it reads is quiet): drained enough to wake it. */
    boolean belowLowWater() {
        return queue.size() <= lowWater;
    }

    /**
     * Any thread, for statistics: the items waiting, from the queue's producer and consumer indices (two
     * acquire loads, no store, so a reader elsewhere costs the two ends nothing but the cache-line
     * transfer of its own read; nothing is counted per item). A gathering channel holds sealed chunks,
     * each full except one sealed before an end mark, plus what the consumer has not taken from the chunk
     * it reads and what the producer put in the chunk it fills; the consumer's fields read here are plain,
     * so from another thread that part may lag by an item or two.
     */
    public long queuedItems() {
        int slots = queue.size();
        return gathering == null ? slots : gathering.waiting(slots);
    }

    /** Items the channel holds before its producer waits, or -1 when it is unbounded. */
    public long capacityItems() {
        return limit == Integer.MAX_VALUE ? -1 : limit;
    }

    @Override
    public String toString() {
        return description;
    }
}
