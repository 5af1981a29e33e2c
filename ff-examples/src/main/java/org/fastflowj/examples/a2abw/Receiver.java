package org.fastflowj.examples.a2abw;

import java.time.Instant;
import org.fastflowj.core.Node;

/**
 * R-Worker: takes its chunks, counting bytes and their weighted sum, and the earliest time one of them was
 * sent; reports when its input has ended.
 */
final class Receiver extends Node<Chunk, Report> {
    private long bytes;
    private long sum;
    private long firstSentNs = Long.MAX_VALUE;

    static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    @Override
    protected Report svc(Chunk chunk) {
        firstSentNs = Math.min(firstSentNs, chunk.sentNs());
        bytes += chunk.data().length;
        sum += chunk.weightedSum();
        return goOn();
    }

    @Override
    protected void eosNotify(int channel) {
        sendOut(new Report(id(), bytes, sum, firstSentNs, epochNanos()));
    }
}
