package org.fastflowj.dist.run;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCut;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.runtime.control.FatalErrors;
import org.fastflowj.core.runtime.control.RunHooks;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.dist.net.PeerException;
import org.fastflowj.dist.net.Transport;
import org.fastflowj.dist.run.bridge.ReceiverTask;
import org.fastflowj.dist.run.bridge.SenderTask;
import org.fastflowj.dist.run.lifecycle.EndAgreement;
import org.fastflowj.dist.run.lifecycle.GroupEnd;
import org.fastflowj.dist.run.lifecycle.GroupLinks;
import org.fastflowj.dist.run.lifecycle.LocalRun;
import org.fastflowj.dist.run.lifecycle.PeerAborts;
import org.fastflowj.dist.run.link.InboundLink;
import org.fastflowj.dist.run.link.OutboundLink;
import org.fastflowj.dist.run.recovery.EarlierLosses;
import org.fastflowj.dist.run.recovery.RecoveryPlan;

/**
 * Runs one group of a distributed program: cuts the whole graph down to the group ({@link GraphCut},
 * with a {@link SenderTask} per peer it sends to and a {@link ReceiverTask} per peer it hears from),
 * listens on the group's endpoint, connects to the peers it sends to, and runs the group's graph on
 * ff-core's {@link Executor}: the same run-time as a one-process run.
 *
 * <p>Its parts: {@link GroupBridges} makes the bridges and their links, {@link GroupLinks} hears the
 * transport, {@link LocalRun} holds the local run, {@link GroupEnd} ends it.
 *
 * <p>Failures: the first failure of the group (a node threw, a peer's connection broke or went silent, a
 * peer aborted) fails the local run, and an ABORT naming the group where it started goes to every peer,
 * which fails and passes it on, so the whole application goes down ({@link PeerAborts}).
 *
 * <p>The end: a group whose part ended waits, its links open, until every group's part ended
 * ({@link EndAgreement}); only then does its run end well. A failure meanwhile fails it too.
 *
 * <p>Threading: built on the thread that calls {@code run}; the transport's event loops report to
 * {@link GroupLinks}; the failure and end hooks run on whichever thread fails or ends the run.
 */
public final class GroupRun {
    /** A peer that connected must finish the handshake (and TLS) within this time. */
    private static final long HANDSHAKE_TIMEOUT_MS = 10_000;
    /** How long a halting JVM waits for its peers to read its ABORT. */
    private static final long ABORT_GRACE_MS = 500;

    private final String group;
    private final DffConfig config;
    private final DFF.Settings settings;
    private final GroupLinks links;
    private final PeerAborts aborts;
    private final LocalRun localRun = new LocalRun();
    /** The process environment ({@link DFF#SECRET_ENV}); replaced in tests. */
    private final UnaryOperator<String> env;

    private GroupRun(DFF.Settings settings, UnaryOperator<String> env) {
        this.env = env;
        this.group = settings.group();
        this.config = settings.config();
        this.settings = settings;
        this.links = new GroupLinks(group, this::fail);
        this.aborts = new PeerAborts(group, links, config.heartbeatTimeoutMs());
    }

    /** Starts {@code settings.group()}'s part of {@code whole}; returns once it runs (peers connected). */
    public static Execution start(Graph whole, RunOptions options, DFF.Settings settings) {
        return start(whole, options, settings, System::getenv);
    }

    /** As {@link #start(Graph, RunOptions, DFF.Settings)}, reading environment variables from {@code env}. */
    static Execution start(Graph whole, RunOptions options, DFF.Settings settings, UnaryOperator<String> env) {
        return new GroupRun(ProgramPackages.admit(whole, settings), env).begin(whole, options);
    }

    private Execution begin(Graph whole, RunOptions options) {
        config.requireGroups(GraphCut.groups(whole));
        GroupConfig mine = config.group(group).orElseThrow();
        long fingerprint =
                Fingerprint.of(whole, config, settings.serialization().fingerprint());
        RecoveryPlan recovery = RecoveryPlan.of(whole, group);
        links.recovery(recovery);
        List<String> losablePeers = recovery.losablePeers(whole, group);
        if (!losablePeers.isEmpty()) {
            // A status line for the launcher: it shows such a group as lost instead of stopping the run.
            ControlLine.emit(System.err, "DFF_LOSABLE: " + String.join(",", losablePeers));
        }
        links.onLoss(peer -> EarlierLosses.record(config, group, peer));
        Graph local = GraphCut.forGroup(whole, group, new GroupBridges(whole, settings, links, recovery));
        links.expectLinks();
        links.expectEnds(EndAgreement.connectedGroups(whole, group));
        goOnWithoutEarlierLosses(recovery);
        aborts.watchFreezes();
        Transport transport = Transport.start(
                GroupWireSettings.of(config, group, fingerprint, HANDSHAKE_TIMEOUT_MS, env),
                resolved(mine),
                links.inbound().keySet(),
                links);
        Runnable stopLastWords = FatalErrors.beforeHalt(this::tellPeersBeforeHalt);
        if (!links.inbound().isEmpty()) {
            System.err.println(InboundLink.describeBound(group, mine.maxBufferedBytesPerLink()));
        }
        connectPeers(transport, stopLastWords);
        GroupEnd end =
                new GroupEnd(group, localRun, links, aborts, transport, stopLastWords, config.heartbeatTimeoutMs());
        // The event loops that carry this group's links compete with its node threads for the cores: on a
        // machine with few cores, node threads that wait should park soon rather than spin and yield.
        StatsReporter reporter = settings.report() ? new StatsReporter(System.err, whole) : null;
        RunHooks hooks = RunHooks.NONE
                .onFailure(aborts::abort)
                .onEnd(() -> {
                    checkRecoveryBooks(recovery);
                    if (reporter == null) {
                        end.run();
                    } else {
                        endAndReport(end, reporter);
                    }
                })
                .linkStats(links::stats)
                .recovery(recovery)
                .otherBusyThreads(transport.busyIoThreads(
                        links.inbound().size() + links.outbound().size()));
        RunOptions groupOptions = GroupCheckpointing.withConfig(
                mine.threadMapping().isBlank() ? options : options.threadMapping(mine.threadMapping()), config);
        Execution started = groupOptions.checkpointInterval() == null
                ? Executor.start(local, groupOptions, hooks)
                : GroupCheckpointing.start(
                        local, groupOptions, hooks, group, GraphCut.groups(whole), settings.checkpointStart());
        localRun.started(started);
        if (reporter != null) {
            reporter.started(started);
        }
        return started;
    }

    /**
     * The peers this group lost in an earlier run of the program have no process left: this run goes on
     * without those it may lose, and fails at once, naming the peer, if it needs one.
     */
    private void goOnWithoutEarlierLosses(RecoveryPlan recovery) {
        for (String peer : EarlierLosses.of(config, group)) {
            if (!links.inbound().containsKey(peer) && !links.outbound().containsKey(peer)) {
                continue; // not a peer of this run
            }
            if (!recovery.losable(peer)) {
                throw new IllegalStateException("group " + group + " lost group " + peer + " in an earlier run of"
                        + " this program, and this run cannot go on without it: only a group that holds nothing"
                        + " but workers of recoverable farms (a MacroDataFlow's or ParallelFor's worker groups"
                        + " among them) may be missing");
            }
            links.loseBeforeStart(peer);
        }
    }

    /**
     * Before this group tells its end: a run that recovered from losing a group must have every item sent
     * to a remote worker answered or handed back exactly once, and every item handed back sent again. When
     * that does not hold the run lost (or doubled) items: it fails, with the counts, and never ends as a
     * success.
     */
    private void checkRecoveryBooks(RecoveryPlan recovery) {
        if (localRun.stopped()) {
            return; // failed already: its own failure is the one reported
        }
        String unbalanced = recovery.unbalancedBooks();
        if (unbalanced != null) {
            Set<String> lost = links.lostGroups();
            localRun.fail(
                    "group " + group,
                    "recovery",
                    new IllegalStateException("group " + group + "'s recovery books do not balance"
                            + (lost.isEmpty() ? "" : " after losing " + String.join(", ", new TreeSet<>(lost)))
                            + ": " + unbalanced));
        }
    }

    /** The final statistics follow the end agreement: by then the links' counts are final too. */
    private static void endAndReport(GroupEnd end, StatsReporter reporter) {
        try {
            end.run();
        } finally {
            reporter.ended();
        }
    }

    /** Connects to every peer this group sends to; on a failure tells the others and stops the transport. */
    private void connectPeers(Transport transport, Runnable stopLastWords) {
        String connecting = null;
        try {
            for (OutboundLink out : links.outbound().values()) {
                if (links.isLost(out.peer)) {
                    continue; // lost in an earlier run: it has no process to connect to
                }
                connecting = out.peer;
                out.open(transport.connect(
                        out.peer, resolved(config.group(out.peer).orElseThrow())));
                links.ends().linkOpened(out.link());
            }
            links.outboundOpened();
        } catch (RuntimeException e) {
            aborts.connectFailed(e instanceof PeerException ? connecting : null, e);
            transport.close();
            stopLastWords.run();
            throw e;
        }
    }

    private static InetSocketAddress resolved(GroupConfig g) {
        return new InetSocketAddress(g.host(), g.port());
    }

    /**
     * This JVM halts (out of memory...): the peers hear why. The links stay open: closing a socket with
     * unread bytes resets it, and a reset can overtake the ABORT. The peers get a moment to read it; the
     * halt then closes everything (FatalErrors bounds the whole).
     */
    private void tellPeersBeforeHalt(String why) {
        aborts.halting(why);
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ABORT_GRACE_MS));
    }

    /** A peer aborted or a link broke: the local run fails (now, or as soon as it starts). */
    private void fail(String origin, String phase, RuntimeException cause) {
        aborts.failingFromOutside();
        localRun.fail(origin, phase, cause);
        // The run may have ended already and wait for the others' end: it fails now instead (once the
        // failure hook told the peers, when this failure was the first).
        links.ends().abandon();
    }
}
