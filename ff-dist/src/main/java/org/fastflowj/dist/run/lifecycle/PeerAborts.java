package org.fastflowj.dist.run.lifecycle;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.fastflowj.core.NodeFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a group tells its peers of its run's first failure: an ABORT on every link, naming the group where
 * the failure started ({@link FailureOrigin}), and the {@code DFF_FAILED:} line for the launcher.
 *
 * <p>The failure hook runs on whichever thread fails the run: a node thread, or an event loop when a peer
 * or a link failed the run from outside. In the second case the run's last node thread may reach the end
 * hook first; the end hook then waits ({@link #awaitSent}) so that the peers hear the ABORT before the
 * links close, instead of a close that would look like this group's own failure.
 *
 * <p>Threading: any thread; the flags are volatile, the end of sending is a latch.
 */
public final class PeerAborts {
    private static final Logger LOG = LoggerFactory.getLogger(PeerAborts.class);
    /** The longest the end hook waits for a failure hook that runs on another thread: it only sends frames. */
    private static final long WAIT_MS = 2_000;

    private final String group;
    private final GroupLinks links;
    private final long heartbeatTimeoutMs;
    private final CountDownLatch sent = new CountDownLatch(1);
    private volatile boolean started;
    private volatile boolean fromOutside;
    private volatile FreezeDetector freezes;

    public PeerAborts(String group, GroupLinks links, long heartbeatTimeoutMs) {
        this.group = group;
        this.links = links;
        this.heartbeatTimeoutMs = heartbeatTimeoutMs;
    }

    /** Watches for freezes of this process from now on (before the transport starts). */
    public void watchFreezes() {
        freezes = new FreezeDetector(group, Math.max(1_000, heartbeatTimeoutMs / 2));
    }

    /** The run's first failure (its failure hook): every peer hears of it, naming the origin. */
    public void abort(NodeFailedException failure) {
        started = true;
        boolean handedOver = false;
        try {
            LOG.error("group {} failed: {}", group, failure.getMessage());
            FailureOrigin.Verdict verdict =
                    FailureOrigin.of(group, failure, freezes.recentFreezeMs(2 * heartbeatTimeoutMs));
            if (verdict.frozen()) {
                LOG.error("group {} failed: {}", group, verdict.why());
            }
            FailureOrigin.announce(verdict.origin());
            if (verdict.origin().equals(group) && !verdict.frozen()) {
                FailureOrigin.announceProgramFrame(failure);
            }
            links.abortAll(verdict.origin(), verdict.why(), sent::countDown); // once the ABORTs went out
            handedOver = true;
        } finally {
            if (!handedOver) {
                sent.countDown();
            }
            // Only now: an end hook waiting for the others' end closes the links once it wakes.
            links.ends().abandon();
        }
    }

    /**
     * This JVM halts (a fatal error, {@code FatalErrors}): this group is the origin, every peer hears it, and
     * the links stay open so that no reset overtakes the ABORT.
     */
    public void halting(String why) {
        started = true;
        try {
            FailureOrigin.announce(group);
            links.abortAllLeavingOpen(group, why);
        } finally {
            sent.countDown();
        }
    }

    /**
     * Connecting to {@code peer} failed before the run started: the peers that already reached this group
     * hear who is missing (or, for another error, that this group failed), not just that this group left.
     */
    public void connectFailed(String peer, RuntimeException e) {
        String origin = peer != null ? peer : group;
        LOG.error("group {} failed: node group {} failed in connection: {}", group, origin, e.toString());
        FailureOrigin.announce(origin);
        links.abortAll(origin, "group " + group + " says: " + e.getMessage(), () -> {});
        close();
    }

    /** Whether the peers were told of a failure already (or are being told). */
    boolean started() {
        return started;
    }

    /** A failure comes from outside the node threads: its hook may run after the end hook. */
    public void failingFromOutside() {
        fromOutside = true;
    }

    boolean fromOutside() {
        return fromOutside;
    }

    /**
     * Waits (a little) until the failure hook sent the ABORTs. Uninterruptibly: the end hook runs on a node
     * thread, which the run's failure interrupts; returning at once would close the transport under the
     * ABORTs, and the peers would blame this group.
     */
    void awaitSent() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        boolean interrupted = false;
        while (true) {
            try {
                sent.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops watching for freezes. */
    void close() {
        FreezeDetector f = freezes;
        if (f != null) {
            f.close();
        }
    }
}
