package org.fastflowj.dist.run;

import java.net.InetSocketAddress;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCut;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.runtime.FatalErrors;
import org.fastflowj.core.runtime.RunHooks;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.dist.net.PeerException;
import org.fastflowj.dist.net.Transport;
import org.fastflowj.dist.net.WireSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one group of a distributed program: cuts the whole graph down to the group ({@link GraphCut},
 * with a {@link SenderNode} per peer it sends to and a {@link ReceiverNode} per peer it hears from),
 * listens on the group's endpoint, connects to the peers it sends to, and runs the group's graph on
 * ff-core's {@link Executor}: the same run-time as a one-process run.
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
    private static final Logger LOG = LoggerFactory.getLogger(GroupRun.class);
    /** A peer that connected must finish the handshake (and TLS) within this time. */
    private static final long HANDSHAKE_TIMEOUT_MS = 10_000;
    /** How long a halting JVM waits for its peers to read its ABORT. */
    private static final long ABORT_GRACE_MS = 500;

    private final String group;
    private final DffConfig config;
    private final DFF.Settings settings;
    private final GroupLinks links;
    /** The process environment ({@link DFF#SECRET_ENV}); replaced in tests. */
    private final UnaryOperator<String> env;

    private volatile Execution execution;
    /** A failure that came before the local run existed (while connecting): applied once it starts. */
    private volatile PendingFailure pendingFailure;

    private final PeerAborts aborts;

    private record PendingFailure(String origin, String phase, RuntimeException cause) {}

    private Transport transport;
    private Runnable stopLastWords = () -> {};

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
        Graph local = GraphCut.forGroup(whole, group, new Bridges(whole, mine));
        links.expectLinks();
        links.expectEnds(EndAgreement.connectedGroups(whole, group));
        aborts.watchFreezes();
        transport = Transport.start(wireSettings(fingerprint), resolved(mine), links.inbound.keySet(), links);
        stopLastWords = FatalErrors.beforeHalt(this::tellPeersBeforeHalt);
        if (!links.inbound.isEmpty()) {
            System.err.println(InboundLink.describeBound(group, mine.maxBufferedBytesPerLink()));
        }
        String connecting = null;
        try {
            for (OutboundLink out : links.outbound.values()) {
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
        // The event loops that carry this group's links compete with its node threads for the cores: on a
        // machine with few cores, node threads that wait should park soon rather than spin and yield.
        RunHooks hooks = RunHooks.NONE
                .onFailure(aborts::abort)
                .onEnd(this::end)
                .linkStats(links::stats)
                .otherBusyThreads(transport.busyIoThreads(links.inbound.size() + links.outbound.size()));
        RunOptions groupOptions =
                mine.threadMapping().isBlank() ? options : options.threadMapping(mine.threadMapping());
        Execution started = Executor.start(local, groupOptions, hooks);
        execution = started;
        PendingFailure pending = pendingFailure;
        if (pending != null) {
            started.fail(pending.origin(), pending.phase(), pending.cause());
        }
        return started;
    }

    private WireSettings wireSettings(long fingerprint) {
        return GroupWireSettings.of(config, group, fingerprint, HANDSHAKE_TIMEOUT_MS, env);
    }

    private static InetSocketAddress resolved(GroupConfig g) {
        return new InetSocketAddress(g.host(), g.port());
    }

    /** Makes the bridges of this group, and the links behind them. */
    private final class Bridges implements GraphCut.BridgeFactory {
        private final Map<Edge, Integer> edgeIds = new IdentityHashMap<>();
        private final GroupConfig mine;

        Bridges(Graph whole, GroupConfig mine) {
            this.mine = mine;
            for (int i = 0; i < whole.edges().size(); i++) {
                edgeIds.put(whole.edges().get(i), i);
            }
        }

        @Override
        public SenderNode sender(String peer, List<Edge> forward, List<Edge> feedback) {
            int credits =
                    insideOneAllToAll(forward) && feedback.isEmpty() ? mine.internalMessageOTF() : mine.messageOTF();
            OutboundLink link = new OutboundLink(group, peer, credits, ids(forward), ids(feedback));
            links.outbound.put(peer, link);
            int[] onDemandSlots = forward.stream().mapToInt(Edge::slots).toArray();
            return new SenderNode(
                    link,
                    ids(forward),
                    ids(feedback),
                    onDemandSlots,
                    mine.batchSize(),
                    mine.flushDelayMicros(),
                    config.maxFrameBytes(),
                    settings.serialization());
        }

        @Override
        public ReceiverNode receiver(String peer, List<Edge> forward, List<Edge> feedback) {
            GroupConfig sender = config.group(peer).orElseThrow();
            // The credits the peer's sender takes (see sender() there): the fingerprint makes both configs agree.
            int credits = insideOneAllToAll(forward) && feedback.isEmpty()
                    ? sender.internalMessageOTF()
                    : sender.messageOTF();
            InboundLink link = new InboundLink(group, peer, credits, mine.maxBufferedBytesPerLink());
            links.inbound.put(peer, link);
            int peerBatchSize = config.group(peer).orElseThrow().maxBatchSize(); // the most one frame holds
            boolean[] onDemand = new boolean[forward.size()];
            for (int i = 0; i < onDemand.length; i++) {
                onDemand[i] = forward.get(i).slots() > 0;
            }
            return new ReceiverNode(
                    link,
                    ids(forward),
                    ids(feedback),
                    onDemand,
                    config.connectTimeoutMs(),
                    peerBatchSize,
                    settings.serialization());
        }

        private int[] ids(List<Edge> edges) {
            return edges.stream().mapToInt(edgeIds::get).toArray();
        }
    }

    /**
     * Whether every edge goes from an L-Worker to an R-Worker of the same all-to-all (a horizontal cut
     * between two groups that both hold part of it): those connections use {@code internalMessageOTF}.
     * The compiler's thread names say where a vertex sits ({@code ff-a2a1-L0}, {@code ff-a2a1-R2-stage0}).
     */
    private static boolean insideOneAllToAll(List<Edge> edges) {
        for (Edge e : edges) {
            String from = e.from().name();
            int l = from.lastIndexOf("-L");
            if (l < 0
                    || !from.substring(0, l).matches(".*-a2a\\d+")
                    || !e.to().name().startsWith(from.substring(0, l) + "-R")) {
                return false;
            }
        }
        return !edges.isEmpty();
    }

    // ---- failures and the end ----

    /**
     * The group's last node thread ends: after a cancellation, tell the peers; after a success, wait until
     * every other group's part ended too ({@link EndAgreement}; a failure meanwhile fails this run as well).
     * Then close the transport.
     */
    private void end() {
        Execution ex = execution;
        if (ex != null && ex.isStopped() && !aborts.started()) {
            if (aborts.fromOutside()) {
                // A peer's failure cancelled the run, and its failure hook is about to tell the other peers,
                // naming the true origin: closing the transport first would look like a failure of ours.
                aborts.awaitSent();
            } else {
                aborts.abort(new NodeFailedException("group " + group, "run", new CancellationException("cancelled")));
            }
        } else if (!aborts.started()) {
            boolean lastToEnd = links.ends().localEnd();
            if (!lastToEnd) {
                LOG.info("group {}'s part ended; waiting for the other groups' to end", group);
            }
            if (lastToEnd || links.ends().await()) {
                links.ends().closeLinks(config.heartbeatTimeoutMs());
            } else {
                aborts.awaitSent(); // failed meanwhile: the peers hear why before the links close
            }
        }
        links.dropUnread();
        aborts.close();
        transport.close();
        stopLastWords.run();
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

    private void fail(String origin, String phase, RuntimeException cause) {
        aborts.failingFromOutside();
        Execution ex = execution;
        if (ex == null) {
            pendingFailure = new PendingFailure(origin, phase, cause);
        } else {
            ex.fail(origin, phase, cause);
        }
        // The run may have ended already and wait for the others' end: it fails now instead (once the
        // failure hook told the peers, when this failure was the first).
        links.ends().abandon();
    }
}
