package org.fastflowj.dist.run.lifecycle;

import java.util.concurrent.CancellationException;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.dist.net.Transport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a group does when its last node thread ends: after a cancellation, tell the peers; after a
 * success, wait until every other group's part ended too ({@link EndAgreement}; a failure meanwhile fails
 * this run as well). Then close the links and the transport.
 *
 * <p>Threading: {@link #run} once, on the thread that ends the local run.
 */
public final class GroupEnd implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupEnd.class);

    private final String group;
    private final LocalRun localRun;
    private final GroupLinks links;
    private final PeerAborts aborts;
    private final Transport transport;
    private final Runnable stopLastWords;
    private final long heartbeatTimeoutMs;

    public GroupEnd(
            String group,
            LocalRun localRun,
            GroupLinks links,
            PeerAborts aborts,
            Transport transport,
            Runnable stopLastWords,
            long heartbeatTimeoutMs) {
        this.group = group;
        this.localRun = localRun;
        this.links = links;
        this.aborts = aborts;
        this.transport = transport;
        this.stopLastWords = stopLastWords;
        this.heartbeatTimeoutMs = heartbeatTimeoutMs;
    }

    @Override
    public void run() {
        if (localRun.stopped() && !aborts.started()) {
            if (aborts.fromOutside()) {
                // A peer's failure cancelled the run, and its failure hook is about to tell the other peers,
                // naming the true origin: closing the transport first would look like a failure of ours.
                aborts.awaitSent();
            } else {
                aborts.abort(new NodeFailedException("group " + group, "run", new CancellationException("cancelled")));
            }
        } else if (!aborts.started()) {
            awaitTheOtherGroups();
        }
        if (aborts.started()) {
            // A failure hook on another thread (an event loop that lost a peer) may still be sending the
            // ABORTs: closing the transport under it would drop them, and the peers would blame this group.
            aborts.awaitSent();
        }
        links.dropUnread();
        aborts.close();
        transport.close();
        stopLastWords.run();
    }

    private void awaitTheOtherGroups() {
        boolean lastToEnd = links.ends().localEnd();
        if (!lastToEnd) {
            LOG.info("group {}'s part ended; waiting for the other groups' to end", group);
        }
        if (lastToEnd || links.ends().await()) {
            links.ends().closeLinks(heartbeatTimeoutMs);
        } else {
            aborts.awaitSent(); // failed meanwhile: the peers hear why before the links close
        }
    }
}
