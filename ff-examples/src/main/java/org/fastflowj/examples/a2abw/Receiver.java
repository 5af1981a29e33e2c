package org.fastflowj.examples.a2abw;

import java.time.Instant;
import org.fastflowj.core.Node;

/** R-Worker: takes its chunks, counting bytes and their weighted sum; reports when its input has ended. */
final class Receiver extends Node<Chunk, Report> {
    private long bytes;
    private long sum;
    private long firstNs;

    static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    @Override
    protected Report svc(Chunk chunk) {
        if (bytes == 0) {
            firstNs = epochNanos();
        }
        bytes += chunk.data().length;
        sum += chunk.weightedSum();
        return goOn();
    }

    @Override
    protected void eosNotify(int channel) {
        sendOut(new Report(id(), bytes, sum, firstNs, epochNanos()));
    }
}
