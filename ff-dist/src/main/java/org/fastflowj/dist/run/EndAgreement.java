package org.fastflowj.dist.run;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;

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
 * <p>Threading: {@link #heard} comes from the event loops, {@link #localEnd} and {@link #await} from the
 * node thread that ends the run, {@link #abandon} from any thread; the set of ended groups, and the passing
 * on of news, are guarded by this object's monitor; the end is a latch.
 */
final class EndAgreement {
    private final String group;
    private final Set<String> expected;
    private final Set<String> ended = new HashSet<>();
    private final CountDownLatch settled = new CountDownLatch(1);
    private volatile boolean complete;

    /** @param expected every group whose end this one waits for (itself included) */
    EndAgreement(String group, Set<String> expected) {
        this.group = group;
        this.expected = Set.copyOf(expected);
    }

    /**
     * The groups {@code group} exchanges items with, directly or through others: the ones whose end it can
     * hear of. (A program of two unconnected parts has two ends.)
     */
    static Set<String> connectedGroups(Graph whole, String group) {
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

    /** This group's part ended: {@code passOn} tells every peer. */
    void localEnd(Consumer<String> passOn) {
        heard(group, passOn);
    }

    /**
     * {@code g}'s part ended: if that is news, {@code passOn} tells every peer. Both happen under this
     * object's monitor, and so does the decision that every group ended: whoever sees the end sees every
     * frame that passes news on already handed to the links, so the links close only behind them.
     */
    synchronized void heard(String g, Consumer<String> passOn) {
        if (!ended.add(g)) {
            return;
        }
        passOn.accept(g);
        if (ended.containsAll(expected)) {
            complete = true;
            settled.countDown();
        }
    }

    /** Runs {@code action} on every group heard of so far, under the monitor that orders all news. */
    synchronized void forEachEnded(Consumer<String> action) {
        ended.forEach(action);
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
    void abandon() {
        settled.countDown();
    }

    /** Waits until every group's part ended or the run failed. */
    void await() {
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
    }
}
