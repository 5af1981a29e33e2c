package org.fastflowj.examples.a2abw;

import org.fastflowj.core.Node;

/**
 * R-Worker: takes its chunks, counting bytes and their weighted sum, and the earliest time one of them was
 * sent; reports when its input has ended.
 */
final class Receiver extends Node<Chunk, Report> {
    private long bytes;
    private long sum;
    private long firstSentNs = Long.MAX_VALUE;

    @Override
    protected Report svc(Chunk chunk) {
        firstSentNs = Math.min(firstSentNs, chunk.sentNs());
        bytes += chunk.data().length;
        sum += chunk.weightedSum();
        return goOn();
    }

    @Override
    protected void eosNotify(int channel) {
        sendOut(report());
    }

    /** What this R-Worker received so far, ending now. */
    Report report() {
        return new Report(id(), bytes, sum, firstSentNs, Chunk.epochNanos());
    }
}
