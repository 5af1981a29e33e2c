package org.fastflowj.dist.run.lifecycle;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.socket.DuplexChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.net.PeerLink;

/**
 * When a group may end: only once every group of the application has ended its own part, so that a
 * failure anywhere, even after this group's part is done, still makes this group fail (and its process
 * exit non-zero) instead of reporting a success the application did not have.
 *
 * <pre>
 *   A's part ends ──ENDED(A)──▶ every peer, which passes each group it hears of on to all its peers
 *   A waits, links open (heartbeats go on)
 *     ├─ has heard ENDED of every group it is connected with, directly or not ──▶ A ends: exit 0
 *     └─ ABORT, a lost link, a peer that closes before telling everything    ──▶ A fails: exit ≠ 0
 * </pre>
 *
 * A group passes every group it hears of on to its peers before it can close any link, and a link's frames
 * arrive in order, so a peer that closes cleanly has told everything it knew first: a link that closes
 * while this group still waits means a peer died.
 *
 * <p>Threading: {@link #heard} and {@link #linkOpened} come from the event loops (and the thread that
 * connects), {@link #localEnd}, {@link #await} and {@link #closeLinks} from the node thread that ends the
 * run, {@link #abandon} from any thread; the set of ended groups, and the passing on of news, are guarded
 * by this object's monitor; the end is a latch.
 */
public final class EndAgreement {
    private final String group;
    private final Set<String> expected;
    private final Supplier<List<PeerLink>> links;
    private final Set<String> ended = new HashSet<>();
    private final CountDownLatch settled = new CountDownLatch(1);
    private volatile boolean complete;

    /**
     * @param expected every group whose end this one waits for (itself included)
     * @param links this group's links that opened so far
     */
    EndAgreement(String group, Set<String> expected, Supplier<List<PeerLink>> links) {
        this.group = group;
        this.expected = Set.copyOf(expected);
        this.links = links;
    }

    /**
     * The groups {@code group} exchanges items with, directly or through others: the ones whose end it can
     * hear of. (A program of two unconnected parts has two ends.)
     */
    public static Set<String> connectedGroups(Graph whole, String group) {
        Set<String> reached = new LinkedHashSet<>();
        Deque<String> next = new ArrayDeque<>();
        reached.add(group);
        next.add(group);
        while (!next.isEmpty()) {
            String g = next.poll();
            for (Edge e : whole.edges()) {
                String from = e.from().group();
                String to = e.to().group();
                if (from == null || to == null) {
                    continue;
                }
                String other = g.equals(from) ? to : g.equals(to) ? from : null;
                if (other != null && reached.add(other)) {
                    next.add(other);
                }
            }
        }
        return reached;
    }

    /** Whether {@code g} is one of the groups this one waits for: only those can end, or fail, in its run. */
    boolean expects(String g) {
        return expected.contains(g);
    }

    /** The groups this one waits for, for messages. */
    String expectedNames() {
        return String.join(", ", new TreeSet<>(expected));
    }

    /** This group's part ended: every peer hears of it. Returns true if every group's part ended. */
    boolean localEnd() {
        heard(group);
        return complete;
    }

    /**
     * {@code g}'s part ended: if that is news, every peer hears of it. Both happen under this object's
     * monitor, and so does the decision that every group ended: whoever sees the end sees every frame
     * that passes news on already handed to the links, so the links close only behind them.
     */
    synchronized void heard(String g) {
        if (!ended.add(g)) {
            return;
        }
        for (PeerLink link : links.get()) {
            tell(link, g);
        }
        if (ended.containsAll(expected)) {
            complete = true;
            settled.countDown();
        }
    }

    /** A link opened: the peer hears of every end heard of before (the link missed them). */
    public synchronized void linkOpened(PeerLink link) {
        ended.forEach(g -> tell(link, g));
    }

    /**
     * Writes the news on the link's own event loop, in a task queued behind the news passed on before, and
     * before the task that closes the link ({@link #closeLinks}, {@code Transport.close}).
     */
    private static void tell(PeerLink link, String g) {
        try {
            link.channel().eventLoop().execute(() -> {
                if (link.isOpen()) { // a peer that ended already closed its side: it needs no news
                    ByteBuf payload = link.alloc().buffer();
                    GroupLinks.writeUtf(payload, g);
                    link.send(Frames.ENDED, payload);
                }
            });
        } catch (RejectedExecutionException e) {
            // The transport is closing: this group failed or ended, and its peers learn it that way.
        }
    }

    /**
     * Every group ended: closes this group's half of every link, behind the news already queued on it, and
     * waits (at most {@code timeoutMs}) until each peer closed its half too. A plain close would leave
     * what a peer sent meanwhile unread, and the kernel would answer it with a reset that throws away what
     * this group had queued for that peer, the news it still needs included.
     */
    void closeLinks(long timeoutMs) {
        List<Channel> channels = new ArrayList<>();
        for (PeerLink link : links.get()) {
            Channel channel = link.channel();
            channels.add(channel);
            try {
                // Only once everything queued before was written (the pipeline may hold a flush back), as
                // PeerLink.close does.
                channel.eventLoop().execute(() -> channel.writeAndFlush(Unpooled.EMPTY_BUFFER)
                        .addListener(written -> {
                            if (channel instanceof DuplexChannel duplex && duplex.isActive()) {
                                duplex.shutdownOutput(); // the peer reads to the end, then closes: so do we
                            } else {
                                channel.close();
                            }
                        }));
            } catch (RejectedExecutionException e) {
                // The transport is closing already.
            }
        }
        long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (Channel channel : channels) {
            channel.closeFuture()
                    .awaitUninterruptibly(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    /** Whether every group's part ended. */
    boolean complete() {
        return complete;
    }

    /** The groups still running, for messages. */
    synchronized Set<String> stillRunning() {
        Set<String> left = new TreeSet<>(expected);
        left.removeAll(ended);
        return left;
    }

    /** The run failed: nobody waits any more. */
    public void abandon() {
        settled.countDown();
    }

    /** Waits until every group's part ended (true) or the run failed ({@link #abandon}, false). */
    boolean await() {
        boolean interrupted = false;
        while (true) {
            try {
                settled.await();
                break;
            } catch (InterruptedException e) {
                // The run's failure interrupts its node threads: the latch opens at the same time.
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return complete;
    }
}
