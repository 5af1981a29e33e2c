package org.fastflowj.dist.run.recovery;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The items a recoverable farm's emitter sent to one remote worker that the worker has not answered yet
 * (see {@link org.fastflowj.core.Farm#recoverable()}). The worker answers one output per item, in order, so
 * item {@code k} of its dispatch edge is answered by output {@code k} on its return edge: the ledger is a
 * ring of the items sent, and a count of the outputs arrived. Output {@code k} is the sequence number that
 * settles item {@code k}; nothing needs to travel with the items.
 *
 * <p>For a recoverable all-to-all ({@link org.fastflowj.core.AllToAll#recoverable()}) a ledger holds the
 * items of one L-Worker to one remote R-Worker, whose outputs mix several L-Workers' items: each output
 * names the sequence of its item on the wire ({@link TakeOrder}), and {@link #answer} settles that item,
 * or drops the output when that item was answered already.
 *
 * <p>When the worker's group is lost, the receiver first takes the last outputs that arrived and then
 * closes the count ({@link #answersOver}); only then does the sender hand the unanswered items back to the
 * emitter ({@link #handBackUnanswered}). An output that comes later is never read (the link is closed), so
 * every item is answered exactly once: by its first worker, or by the one it is sent to again.
 *
 * <p>Threading: {@link #record}, {@link #handBack} and {@link #handBackUnanswered} on the sender's thread
 * (the ring is its own: the receiver never reads it); {@link #answered} and {@link #answersOver} on the
 * receiver's thread ({@link #answer} too); {@link #settled} on the emitter's. Each counter has one writer; the sender publishes
 * {@code recorded} with a release store (no fence per item), the receiver its count likewise. Per item the
 * ledger takes no lock and allocates nothing (the ring doubles while more items are unanswered than it
 * holds).
 */
public final class RecoveryLedger {
    private final String worker;
    private final LostItems lostItems;
    private Object[] ring = new Object[64];
    private int mask = ring.length - 1;
    /** Slots below this sequence were cleared (answered items are let go of as the ring moves on). */
    private long cleared;

    private final AtomicLong recorded = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    /** Items handed back to the emitter; written after they are queued there (see {@link LostItems}). */
    private final AtomicLong handedBack = new AtomicLong();
    /** Of those, the ones taken from the emitter after the loss and handed back at once, never recorded. */
    private volatile long handedBackAtOnce;

    private volatile boolean answersOver;
    /** Outputs dropped as answers to items already answered (receiver's thread; read for messages). */
    private long duplicates;

    private volatile Thread sender;

    /**
     * @param worker the worker, for messages ({@code "worker 2 of farm1 in group W"})
     * @param lostItems where handed-back items go: its farm's emitter's
     */
    public RecoveryLedger(String worker, LostItems lostItems) {
        this.worker = worker;
        this.lostItems = lostItems;
    }

    // ---- sender thread ----

    /** The sender's thread: woken when the answers are over. */
    public void senderIs(Thread thread) {
        sender = thread;
    }

    /** An item goes to the worker. */
    public void record(Object item) {
        long seq = recorded.get();
        long settledBelow = answered.get();
        if (seq - settledBelow >= ring.length) {
            grow(settledBelow, seq);
        }
        while (cleared < settledBelow) { // amortized: each slot is cleared once per lap
            ring[(int) (cleared++ & mask)] = null;
        }
        ring[(int) (seq & mask)] = item;
        recorded.lazySet(seq + 1); // the receiver reads it only to check the one-output rule
    }

    private void grow(long from, long to) {
        Object[] bigger = new Object[ring.length * 2];
        int biggerMask = bigger.length - 1;
        for (long s = from; s < to; s++) {
            bigger[(int) (s & biggerMask)] = ring[(int) (s & mask)];
        }
        ring = bigger;
        mask = biggerMask;
        cleared = from;
    }

    /** An item the emitter put for the worker after its group was lost: it goes to the others at once. */
    public void handBack(Object item) {
        lostItems.add(item, this);
        handedBackAtOnce++; // the sender's thread only
        handedBack.lazySet(handedBack.get() + 1);
    }

    /** Whether the receiver has taken the last output of the lost worker. */
    public boolean answersAreOver() {
        return answersOver;
    }

    /** After {@link #answersOver}: every recorded item with no output goes back to the emitter. */
    public int handBackUnanswered() {
        long from = answered.get();
        long to = recorded.get();
        for (long s = from; s < to; s++) {
            int slot = (int) (s & mask);
            lostItems.add(ring[slot], this);
            ring[slot] = null;
        }
        int count = (int) (to - from);
        handedBack.set(handedBack.get() + count);
        return count;
    }

    // ---- receiver thread ----

    /** The worker's output for its next item arrived. */
    public void answered() {
        long n = answered.get() + 1;
        if (answersOver) {
            throw new IllegalStateException(worker + " answered an item after its answers were over (its unanswered"
                    + " items may be handed back): it would be answered twice");
        }
        if (n > recorded.get()) {
            throw new IllegalStateException(worker + " sent more outputs than it was sent items: a recoverable"
                    + " farm's worker must send exactly one output per item (Farm.recoverable())");
        }
        answered.lazySet(n);
    }

    /**
     * An output named its item ({@link org.fastflowj.core.AllToAll#recoverable()}: an R-Worker's output
     * carries the sequence of the item it answers): true for the answer to the oldest unanswered item; false
     * for an item already answered, whose output is dropped before the consumer sees it twice.
     *
     * @throws IllegalStateException if the output skips an item, or answers one never sent: the worker
     *     broke the one-output-per-item rule
     */
    public boolean answer(long sequence) {
        long expected = answered.get();
        if (sequence < expected) {
            duplicates++;
            return false;
        }
        if (answersOver) {
            throw new IllegalStateException(worker + " answered item " + sequence + " after its answers were over"
                    + " (its unanswered items may be handed back): it would be answered twice");
        }
        if (sequence >= recorded.get()) {
            throw new IllegalStateException(worker + " sent an output for item " + sequence + " but only "
                    + recorded.get() + " item(s) were sent: a recoverable all-to-all's R-Worker must send exactly"
                    + " one output per item (AllToAll.recoverable())");
        }
        if (sequence > expected) {
            throw new IllegalStateException(worker + " sent an output for item " + sequence + " while item " + expected
                    + " had none: a recoverable all-to-all's R-Worker must send exactly one output per item, in order"
                    + " (AllToAll.recoverable())");
        }
        answered.lazySet(expected + 1);
        return true;
    }

    /** The worker's group is lost and its last output was taken: no answer counts any more. */
    public void answersOver() {
        answersOver = true;
        Thread s = sender;
        if (s != null) {
            LockSupport.unpark(s);
        }
    }

    // ---- emitter thread ----

    /** Items answered or handed back. */
    public long settled() {
        return answered.get() + handedBack.get();
    }

    // ---- the group's end ----

    /**
     * The books, once this group's run ended: every item the sender took for the worker is answered or
     * handed back, exactly once ({@code answered + handed back = sent + handed back at once}). Null when
     * they balance, else the counts.
     */
    public String unbalanced() {
        long sent = recorded.get();
        long answers = answered.get();
        long back = handedBack.get();
        long atOnce = handedBackAtOnce;
        long missing = sent + atOnce - answers - back;
        if (missing == 0) {
            return null;
        }
        return this + ": " + Math.abs(missing) + " item(s) "
                + (missing > 0 ? "neither answered nor handed back" : "settled twice") + " (" + atOnce
                + " of those handed back came from the emitter after the loss, never sent)";
    }

    @Override
    public String toString() {
        return worker + ": " + recorded.get() + " sent, " + answered.get() + " answered, " + handedBack.get()
                + " handed back" + (duplicates == 0 ? "" : ", " + duplicates + " duplicate output(s) dropped");
    }
}
