package org.fastflowj.core.runtime.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.fastflowj.core.WorkerAffinity;
import org.fastflowj.core.spi.CheckpointBarrier;
import org.fastflowj.core.spi.Sentinel;

/** 128 bytes, so the role fields, which every party writes, have a cache line to themselves. */
@SuppressWarnings("unused")
abstract class DispatchPadBefore {
    private int holeFiller;
    private long p00, p01, p02, p03, p04, p05, p06, p07;
    private long p10, p11, p12, p13, p14, p15, p16, p17;
}

abstract class DispatchRole extends DispatchPadBefore {
    /** 1 while some thread hands staged items out; the CAS that sets it is the only way in. */
    public volatile int role;
    /** Set by a thread that found the role taken: the holder looks for work again before leaving. */
    volatile int retry;
    /** Under the role: where round-robin resumes (here, on the line the holder already owns). */
    int cursor;
    /** Under the role: items taken from staging so far, to pace the producer's wake-up checks. */
    int polled;
    /** Under the role: which set of preferred slots gives up a held item next to a slot with room. */
    int stealTurn;
}

@SuppressWarnings("unused")
abstract class DispatchPadAfter extends DispatchRole {
    private long q00, q01, q02, q03, q04, q05, q06, q07;
    private long q10, q11, q12, q13, q14, q15, q16, q17;
}

/**
 * On-demand hand-out of one producer's items to its consumers' slot channels, run by whichever thread
 * needs it: a consumer whose slot ran empty, or the producer when it sees a consumer waiting.
 *
 * <pre>
 *   producer ──▶ staging (SPSC, capacity × slots) ──▶ [dispatch] ─┬─▶ slot (SPSC, k items) ──▶ consumer 0
 *                                                                 └─▶ slot (SPSC, k items) ──▶ consumer 1
 * </pre>
 *
 * <p>Why: with one-item slots a consumer holds at most two tasks, so whoever refills its slot must run
 * within two task times. When the producer's thread does it (FastFlow's way), that thread needs a core
 * every task time at fine grain, and on a machine with no spare core every refill costs a park and a
 * wake-up, which can make a fine-grained on-demand farm slower than the sequential loop. Here the
 * producer fills the staging channel in bursts and parks; the consumers refill their own slots, one
 * CAS per round, with no thread switch.
 *
 * <p>Semantics are FastFlow's: a consumer gets an item only when its slot has room, in round-robin order
 * among those with room; end-of-stream reaches every consumer after the items staged before it. Items
 * wait in the staging channel instead of in the producer, like items waiting on a producer's input.
 * With a farm's affinity ({@link #prefer}) an item goes to a slot of the set it prefers; while none of
 * them has room it is held aside, under the role, and waits for one, unless nothing else is staged: then
 * a slot with room takes it, so a preference never leaves a consumer idle while items wait. Held items
 * were staged before anything behind them in staging, so an end or a barrier waits until they are out.
 *
 * <p>Threading: every channel keeps one producer and one consumer at a time. The staging channel's
 * producer is the node's thread; its consumer side and the slots' producer side are used only by the
 * thread holding {@link #role}. The CAS that takes the role (acquire) and the volatile write that gives
 * it back (release) order one holder's channel bookkeeping before the next holder's. No thread ever
 * waits for the role: one that fails to take it sets {@link #retry} and returns, and the holder, after
 * giving the role back, runs another round if {@code retry} is set, so an item staged meanwhile is not
 * left behind (a Dekker pair: each side writes its flag, then reads the other's). Never blocks, never
 * allocates.
 */
public final class OnDemandDispatch extends DispatchPadAfter {
    private static final VarHandle ROLE;

    static {
        try {
            ROLE = MethodHandles.lookup().findVarHandle(DispatchRole.class, "role", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public final SpscChannel staging;
    private final SpscChannel[] slots;
    /** Consumers that have not ended; the last one to end closes the staging channel. */
    private final AtomicInteger liveConsumers;
    /** Under the role: which slots already got their end-of-stream. */
    private final boolean[] endSent;
    /** Slots still owed an end-of-stream (the end was taken from staging but a slot had no room). */
    private volatile int endsOwed;
    /**
     * Under the role: a checkpoint's barrier taken from staging that some slot had no room for yet;
     * nothing behind it is handed out before every slot has it, so no item overtakes it.
     */
    private volatile CheckpointBarrier barrierOwed;
    /** Under the role: which slots already got {@link #barrierOwed}. */
    private final boolean[] barrierSent;
    /**
     * Items placed in each slot, for a recoverable farm's emitter (null otherwise): written under the role
     * (one writer at a time, published by a release store), read by the emitter before its end.
     */
    private AtomicLongArray placedPerSlot;
    /** Which set of slots each item would rather go to (a farm's {@code affinity}), or null: any with room. */
    private WorkerAffinity affinity;
    /** The affinity's sets of slots. */
    private int[][] sets;
    /** Under the role: per set, where the next placement in it starts. */
    private int[] setTurn;
    /**
     * Under the role: per set, the items that reached the head of staging while no slot of their set had
     * room, oldest first. Each goes to its set as soon as a slot there has room, or to any slot with room
     * once nothing else is staged (or an end or a barrier waits behind it).
     */
    private ArrayDeque<Object>[] heldFor;
    /** The most items one set holds; past it, an item goes to any slot with room. */
    private int holdLimit;
    /**
     * Items held, for any thread ({@link #allPlaced}, {@link #hasWork}): the role's holder raises it before
     * the item leaves staging and lowers it after the item's slot and count are written, so a reader that
     * finds staging empty and nothing held misses no item. Written under the role only.
     */
    private volatile int held;

    public OnDemandDispatch(SpscChannel staging, SpscChannel[] slots) {
        this.staging = staging;
        this.slots = slots.clone();
        this.liveConsumers = new AtomicInteger(slots.length);
        this.endSent = new boolean[slots.length];
        this.barrierSent = new boolean[slots.length];
    }

    /**
     * Before the run: an item goes to a slot of the set {@code affinity} prefers for it ({@code sets[i]}, slot
     * indices) when one has room, and waits for one otherwise, unless no slot of its set is left or nothing
     * else is staged: then, as always, round-robin to any slot with room.
     */
    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of a generic type
    public void prefer(int[][] sets, WorkerAffinity affinity) {
        this.sets = sets;
        this.affinity = affinity;
        this.setTurn = new int[sets.length];
        this.heldFor = new ArrayDeque[sets.length];
        for (int i = 0; i < sets.length; i++) {
            heldFor[i] = new ArrayDeque<>();
        }
        this.holdLimit = staging.limit;
    }

    /** Before the run: count the items placed in each slot ({@link #placed}). */
    public void countPlacements() {
        placedPerSlot = new AtomicLongArray(slots.length);
    }

    /** Items placed in slot {@code k} so far (with {@link #countPlacements}). Any thread. */
    public long placed(int k) {
        return placedPerSlot.get(k);
    }

    /**
     * Whether a round could hand something out: cheap reads, safe from any thread (see hasItems), but a
     * hint only. From any thread but the role's holder it may read "no" while items are staged: the head
     * slot is cleared before the consumer index moves past it, so a look between the two sees an empty
     * head slot with more items behind it (on a 2-core machine, a few percent of the looks made while a
     * consumer takes). Fine for a wake-up decision; {@link #allPlaced} is the exact answer.
     */
    public boolean hasWork() {
        return staging.hasItems() || endsOwed > 0 || barrierOwed != null || held > 0;
    }

    /**
     * Producer only: whether every item it staged so far left staging, each counted in {@link #placed}
     * first (a slot's count is written before the item's poll moves the consumer index). Reads the
     * indices, not the head slot, so it never reads "yes" while items wait (see {@link #hasWork}); it may
     * read "no" for an item just placed, which only delays the caller's next look.
     */
    public boolean allPlaced() {
        return staging.queue.isEmpty() && held == 0; // in this order: see held
    }

    /**
     * Producer side, after staging an item: if a consumer is waiting (so nobody may pull soon), hand
     * out now. Reads only the consumers' park states, which change only around a park.
     */
    public void afterSubmit() {
        // The offer before the state reads (Parker's protocol, without the 1-in-64 shortcut: a
        // consumer waiting here has no work at all, so a missed wake-up would idle it for a whole park).
        VarHandle.fullFence();
        for (SpscChannel slot : slots) {
            if (Parker.waitsForInput(slot.consumer.state)) {
                run(null);
                return;
            }
        }
    }

    /**
     * Hands staged items to slots with room, unless another thread is doing it (which then does it for
     * us); true if this call placed anything. {@code caller} is the consumer running it (null for the
     * producer): its own slot needs no wake-up.
     */
    public boolean run(Parker caller) {
        boolean placed = false;
        while (acquire()) {
            try {
                placed |= handOut(caller);
            } finally {
                role = 0; // volatile write: releases this round's channel updates to the next holder
            }
            // Someone found the role taken while we held it: look again for what it came to hand out
            // (a volatile read after the volatile write above, so not reordered before it).
            if (retry == 0) {
                break;
            }
            retry = 0;
        }
        return placed;
    }

    private boolean acquire() {
        // Test before each CAS, and write retry only once: a waiting consumer calls this in a loop, and
        // each CAS or write would take the line from the holder, who needs it to finish its round.
        if (role == 0 && ROLE.compareAndSet(this, 0, 1)) {
            return true;
        }
        if (retry == 0) {
            retry = 1;
        }
        // The holder may have let go and looked at retry before our write: then the role is free now.
        return role == 0 && ROLE.compareAndSet(this, 0, 1);
    }

    private boolean handOut(Parker caller) {
        if (endsOwed > 0) {
            return sendEnds(caller);
        }
        boolean placed = false;
        if (barrierOwed != null) {
            placed = sendBarrier(caller);
            if (barrierOwed != null) {
                return placed;
            }
        }
        if (affinity != null && held > 0) { // only a farm with an affinity holds items: others skip the volatile read
            placed |= placeHeldInTheirSets(caller);
        }
        int took = 0;
        boolean emptied = false;
        for (; ; ) {
            Object item = staging.queue.relaxedPeek();
            if (item == null) {
                emptied = true;
                break;
            }
            if (affinity != null && held > 0 && (item == Sentinel.EOS || item instanceof CheckpointBarrier)) {
                placed |= placeHeldAnywhere(caller); // they were staged before it: they go first
                if (held > 0) {
                    break;
                }
            }
            if (item instanceof CheckpointBarrier barrier) {
                staging.poll();
                took++;
                Arrays.fill(barrierSent, false);
                barrierOwed = barrier;
                placed |= sendBarrier(caller);
                if (barrierOwed != null) {
                    break;
                }
                continue;
            }
            if (item == Sentinel.EOS) {
                staging.poll();
                took++;
                endsOwed = slots.length;
                placed |= sendEnds(caller);
                break;
            }
            int set = affinity == null ? -1 : preferredSet(item);
            if (set >= 0 && setAlive(set)) {
                if (placeInSet(item, set, caller)) {
                    staging.poll();
                    took++;
                    placed = true;
                    continue;
                }
                if (heldFor[set].size() < holdLimit) {
                    held = held + 1; // before the poll: see held
                    heldFor[set].addLast(item);
                    staging.poll();
                    took++;
                    continue;
                }
            }
            if (!placeInSlot(item, caller)) {
                break;
            }
            staging.poll();
            took++;
            placed = true;
        }
        if (emptied && affinity != null && held > 0) {
            placed |= placeHeldAnywhere(caller); // nothing else to hand out: a slot with room takes one
        }
        if (took > 0) {
            wakeProducerIfDrained(took, emptied);
        }
        return placed;
    }

    /** The affinity's set for {@code item}, or -1. */
    private int preferredSet(Object item) {
        int set = affinity.preferredSet(item);
        if (set < -1 || set >= sets.length) {
            throw new IllegalStateException("the farm's worker affinity gives set " + set + " for " + item
                    + ", but it has " + sets.length + " sets of workers");
        }
        return set;
    }

    /** Whether a slot of {@code set} still has its consumer: if none has, its items may go anywhere. */
    private boolean setAlive(int set) {
        for (int k : sets[set]) {
            if (!slots[k].consumerGone) {
                return true;
            }
        }
        return false;
    }

    /** A slot of {@code set} with room, taken in turn from where the last placement there left off. */
    private boolean placeInSet(Object item, int set, Parker caller) {
        int[] members = sets[set];
        int n = members.length;
        int start = setTurn[set];
        for (int j = 0; j < n; j++) {
            int at = start + j < n ? start + j : start + j - n;
            int k = members[at];
            SpscChannel slot = slots[k];
            if (!slot.consumerGone && slot.offer(item)) {
                setTurn[set] = at + 1 == n ? 0 : at + 1;
                placed(k, slot, caller);
                return true;
            }
        }
        return false;
    }

    /** The held items into slots of their sets with room (any slot, for a set with no slot left). */
    private boolean placeHeldInTheirSets(Parker caller) {
        boolean placed = false;
        for (int set = 0; set < heldFor.length; set++) {
            ArrayDeque<Object> items = heldFor[set];
            boolean alive = setAlive(set);
            while (!items.isEmpty()
                    && (alive ? placeInSet(items.peekFirst(), set, caller) : placeInSlot(items.peekFirst(), caller))) {
                items.pollFirst();
                held = held - 1; // after the slot and its count: see held
                placed = true;
            }
        }
        return placed;
    }

    /** Held items, the sets taken in turn, into any slot with room, while one has room. */
    private boolean placeHeldAnywhere(Parker caller) {
        boolean placed = false;
        int setCount = heldFor.length;
        for (int empty = 0; empty < setCount && held > 0; ) {
            ArrayDeque<Object> items = heldFor[stealTurn];
            if (items.isEmpty()) {
                empty++;
            } else if (placeInSlot(items.peekFirst(), caller)) {
                items.pollFirst();
                held = held - 1;
                placed = true;
                empty = 0;
            } else {
                return placed; // no slot has room
            }
            stealTurn = stealTurn + 1 == setCount ? 0 : stealTurn + 1;
        }
        return placed;
    }

    /**
     * After polls from staging: wake the producer if it parked for room and enough has drained. It waits
     * for half the channel (hysteresis), so, as on any channel, looking every 16 polls and fencing every
     * 64 is soon enough; but every time once staging ran empty, or on a tiny staging channel, where no
     * further poll may come to look again.
     */
    private void wakeProducerIfDrained(int took, boolean emptied) {
        int before = polled;
        int after = before + took;
        polled = after;
        boolean urgent = emptied || staging.limit <= IdlePolicy.SHORT_CHANNEL;
        if (urgent || (after >>> 4) != (before >>> 4)) {
            if (urgent || (after >>> 6) != (before >>> 6)) {
                VarHandle.fullFence(); // the polls before the state read: see Parker's protocol
            }
            Parker producer = staging.producer;
            if (Parker.waitsForRoom(producer.state)) {
                producer.wakeForRoom(staging);
            }
        }
    }

    /** Round-robin from the cursor over slots with room; false if none has room. */
    private boolean placeInSlot(Object item, Parker caller) {
        int n = slots.length;
        for (int j = 0; j < n; j++) {
            int k = cursor + j;
            if (k >= n) {
                k -= n;
            }
            SpscChannel slot = slots[k];
            if (!slot.consumerGone && slot.offer(item)) {
                cursor = k + 1 == n ? 0 : k + 1;
                placed(k, slot, caller);
                return true;
            }
        }
        return false;
    }

    /** The item just offered to slot {@code k}: counted for a recoverable farm, its consumer woken. */
    private void placed(int k, SpscChannel slot, Parker caller) {
        if (placedPerSlot != null) {
            placedPerSlot.lazySet(k, placedPerSlot.get(k) + 1); // only the role's holder writes
        }
        wake(slot, caller);
    }

    /** The owed barrier to every slot that has room for it; cleared once every slot has it. */
    private boolean sendBarrier(Parker caller) {
        CheckpointBarrier barrier = barrierOwed;
        boolean placed = false;
        boolean owed = false;
        for (int k = 0; k < slots.length; k++) {
            if (barrierSent[k]) {
                continue;
            }
            SpscChannel slot = slots[k];
            // The raw queue, as for the end: a barrier goes past an on-demand limit when the ring has room.
            if (slot.consumerGone || slot.queue.offer(barrier)) {
                barrierSent[k] = true;
                wake(slot, caller);
                placed = true;
            } else {
                owed = true;
            }
        }
        if (!owed) {
            barrierOwed = null;
        }
        return placed;
    }

    /** End-of-stream to every slot that has room for it; the rest are owed it until a later round. */
    private boolean sendEnds(Parker caller) {
        boolean placed = false;
        int owed = 0;
        for (int k = 0; k < slots.length; k++) {
            if (endSent[k]) {
                continue;
            }
            SpscChannel slot = slots[k];
            // The raw queue, not offer(): the end goes past an on-demand limit when the ring has room.
            if (slot.consumerGone || slot.queue.offer(Sentinel.EOS)) {
                endSent[k] = true;
                slot.producerDone = true;
                wake(slot, caller);
                placed = true;
            } else {
                owed++;
            }
        }
        endsOwed = owed;
        return placed;
    }

    private static void wake(SpscChannel slot, Parker caller) {
        if (slot.consumer == caller) {
            return; // the caller's own slot: it is awake, and looks at its slot next
        }
        // The offer before the state read: a consumer about to park re-checks its slot after writing
        // its state, so one of the two sees the other (Parker's protocol, fenced every time here:
        // the consumer has nothing else to do, a missed wake-up would idle it for a whole park).
        VarHandle.fullFence();
        Parker consumer = slot.consumer;
        if (Parker.waitsForInput(consumer.state)) {
            consumer.wakeForItem(slot);
        }
    }

    /**
     * A consumer ended (its slot is marked gone). When the last one has, nothing staged can go anywhere:
     * the staging channel is closed, so the producer drops instead of waiting and ends.
     */
    void consumerEnded() {
        if (liveConsumers.decrementAndGet() == 0) {
            staging.consumerGone = true;
            VarHandle.fullFence();
            staging.producer.wakeAnyway();
        }
    }
}
