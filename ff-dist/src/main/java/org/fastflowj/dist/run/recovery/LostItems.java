package org.fastflowj.dist.run.recovery;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.fastflowj.core.runtime.recovery.Redelivery;

/**
 * A recoverable farm's emitter's {@link Redelivery}: the items its lost remote workers had not answered,
 * which the emitter sends again to the workers that are left. One {@link RecoveryLedger} per remote worker
 * says how many of that worker's items are settled.
 *
 * <p>Threading: {@link #watch} before the run starts; {@link #add} from the senders' threads; the rest on
 * the emitter's thread. Items come here only when a group is lost, so the queue's allocation per item
 * costs nothing on the normal path. An item is queued before {@link #pending} counts it, and before its
 * ledger counts it settled.
 *
 * <p>Books: once the emitter ends ({@link #emitterEnds}, after every item it sent was settled) nothing
 * may come back; an item that does fails the run, naming the ledger, instead of being dropped. At the
 * group's end (the thread that ends the run, after the emitter's) every item handed back must have been
 * sent again ({@link #unbalanced}).
 */
public final class LostItems implements Redelivery {
    private final String emitter;
    private final ConcurrentLinkedQueue<Object> items = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final RecoveryLedger[] ledgerOfOutput;
    /** Items handed back so far (any sender thread), and those the emitter took to send again (its own). */
    private final AtomicLong added = new AtomicLong();

    private volatile long sentAgain;
    /** The emitter ends: it takes nothing more, so an item handed back now would be lost. */
    private volatile boolean emitterEnded;

    /** For the emitter {@code emitter} (its node's name, for messages), with {@code outputs} forward outputs. */
    public LostItems(String emitter, int outputs) {
        this.emitter = emitter;
        this.ledgerOfOutput = new RecoveryLedger[outputs];
    }

    /** Before the run: forward output {@code output} goes to a remote worker, whose ledger this is. */
    public void watch(int output, RecoveryLedger ledger) {
        ledgerOfOutput[output] = ledger;
    }

    /**
     * An item of a lost worker, for the emitter to send again.
     *
     * @throws IllegalStateException if the emitter has ended (it would never send the item again): the
     *     run fails instead of losing it
     */
    public void add(Object item, RecoveryLedger from) {
        items.add(item);
        added.incrementAndGet();
        queued.incrementAndGet();
        // After the queue, before the flag: the emitter sets the flag, then looks at the queue (emitterEnds).
        if (emitterEnded) {
            throw new IllegalStateException(from + ": an item came back to " + emitter + " after it ended, so"
                    + " nothing would send it again; " + added.get() + " item(s) were handed back to it in all, "
                    + sentAgain + " sent again");
        }
    }

    @Override
    public int[] watchedOutputs() {
        return IntStream.range(0, ledgerOfOutput.length)
                .filter(i -> ledgerOfOutput[i] != null)
                .toArray();
    }

    @Override
    public boolean pending() {
        return queued.get() > 0;
    }

    @Override
    public Object poll() {
        Object item = items.poll();
        if (item != null) {
            queued.decrementAndGet();
            sentAgain++; // the emitter's thread only
        }
        return item;
    }

    @Override
    public long settled(int output) {
        RecoveryLedger ledger = ledgerOfOutput[output];
        return ledger == null ? Long.MAX_VALUE : ledger.settled();
    }

    @Override
    public void emitterEnds() {
        emitterEnded = true;
    }

    /**
     * The group's books at its end: null if every item handed back to the emitter was sent again, else
     * why not.
     */
    public String unbalanced() {
        long back = added.get();
        long again = sentAgain;
        return back == again
                ? null
                : back + " item(s) of lost workers came back to " + emitter + " but " + again + " were sent again";
    }
}
