package org.fastflowj.dist.run.link;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.fastflowj.dist.net.PeerLink;

/**
 * Fails the link to a peer that takes nothing for {@code stallTimeoutMs} while batches sent to it are
 * unacknowledged. A peer that heartbeats but never reads, or reads a byte a second, passes every other check
 * (its link is alive, the credits bound the memory) and would hold the run for ever.
 *
 * <p>Progress is an acknowledgement, or bytes the socket took (the link's unwritten bytes went down since the
 * last look): a slow link that still moves bytes never trips it, however long one batch takes to cross. A
 * receiver whose consumer holds one item for longer than the time-out while its link is full looks the same
 * as a peer that does not read, and trips it too.
 *
 * <p>Threading: the link's event loop only. Acknowledgements are counted there ({@link OutboundLink#onAck}),
 * and the look is a task scheduled there, so the fields are plain.
 */
final class StallWatch implements Runnable {
    private final OutboundLink out;
    private final PeerLink link;
    private final long timeoutMs;
    private final long timeoutNanos;
    private ScheduledFuture<?> look;

    private long acks;
    private long acksSeen;
    private long unwrittenSeen;
    private long lastProgressNanos = System.nanoTime();

    private StallWatch(OutboundLink out, PeerLink link, long timeoutMs) {
        this.out = out;
        this.link = link;
        this.timeoutMs = timeoutMs;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    }

    /** Watches {@code link} from now on; null when {@code timeoutMs} is 0 (never). */
    static StallWatch start(OutboundLink out, PeerLink link, long timeoutMs) {
        if (timeoutMs <= 0) {
            return null;
        }
        StallWatch watch = new StallWatch(out, link, timeoutMs);
        long periodMs = Math.max(10, Math.min(1_000, timeoutMs / 4));
        try {
            watch.look =
                    link.channel().eventLoop().scheduleAtFixedRate(watch, periodMs, periodMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            return null; // the transport is closing: nothing left to watch
        }
        return watch;
    }

    /** An acknowledgement arrived (event loop). */
    void acked() {
        acks++;
    }

    @Override
    public void run() {
        if (!link.isOpen()) {
            look.cancel(false);
            return;
        }
        long now = System.nanoTime();
        long unwritten = link.unwrittenBytes();
        boolean progress = !out.hasUnacknowledged() || acks != acksSeen || unwritten < unwrittenSeen;
        acksSeen = acks;
        unwrittenSeen = unwritten; // also when it grew (a heartbeat): a later fall is the socket taking bytes
        if (progress) {
            lastProgressNanos = now;
        } else if (now - lastProgressNanos >= timeoutNanos) {
            look.cancel(false);
            out.stalled(link + " took nothing for " + timeoutMs + " ms (stallTimeoutMs) while "
                    + out.describeUnacknowledged() + " sent to it were unacknowledged: it does not read what this"
                    + " group sends (hung, or hostile?)");
        }
    }
}
