package org.fastflowj.dist.run;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.fastflowj.core.runtime.Redelivery;

/**
 * A recoverable farm's emitter's {@link Redelivery}: the items its lost remote workers had not answered,
 * which the emitter sends again to the workers that are left. One {@link RecoveryLedger} per remote worker
 * says how many of that worker's items are settled.
 *
 * <p>Threading: {@link #watch} before the run starts; {@link #add} from the senders' threads; the rest on
 * the emitter's thread. Items come here only when a group is lost, so the queue's allocation per item
 * costs nothing on the normal path. An item is queued before {@link #pending} counts it, and before its
 * ledger counts it settled.
 */
final class LostItems implements Redelivery {
    private final ConcurrentLinkedQueue<Object> items = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final RecoveryLedger[] ledgerOfOutput;

    /** For an emitter with {@code outputs} forward outputs. */
    LostItems(int outputs) {
        this.ledgerOfOutput = new RecoveryLedger[outputs];
    }

    /** Before the run: forward output {@code output} goes to a remote worker, whose ledger this is. */
    void watch(int output, RecoveryLedger ledger) {
        ledgerOfOutput[output] = ledger;
    }

    void add(Object item) {
        items.add(item);
        queued.incrementAndGet();
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
        }
        return item;
    }

    @Override
    public long settled(int output) {
        RecoveryLedger ledger = ledgerOfOutput[output];
        return ledger == null ? Long.MAX_VALUE : ledger.settled();
    }
}
