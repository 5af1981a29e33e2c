package org.fastflowj.dist.run;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.fastflowj.core.LinkStats;
import org.fastflowj.core.NodeFailedException;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCut;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.runtime.RunHooks;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.dist.net.PeerHandler;
import org.fastflowj.dist.net.PeerLink;
import org.fastflowj.dist.net.TlsFiles;
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
 * which fails and passes it on, so the whole application goes down.
 *
 * <p>Threading: built on the thread that calls {@code run}; {@link PeerHandler} calls come on the
 * transport's event loops; the failure and end hooks on whichever thread ends the run.
 */
public final class GroupRun implements PeerHandler {
    private static final Logger LOG = LoggerFactory.getLogger(GroupRun.class);
    /** A peer that connected must finish the handshake (and TLS) within this time. */
    private static final long HANDSHAKE_TIMEOUT_MS = 10_000;

    private final String group;
    private final DffConfig config;
    private final DFF.Settings settings;
    private final Map<String, OutboundLink> outbound = new LinkedHashMap<>();
    private final Map<String, InboundLink> inbound = new LinkedHashMap<>();
    private volatile Execution execution;
    /** A failure that came before the local run existed (while connecting): applied once it starts. */
    private volatile PendingFailure pendingFailure;
    /** Links not open yet; at zero the group says so once on stdout ({@code DFF_CONNECTED: G}, for the launcher). */
    private final AtomicInteger linksToOpen = new AtomicInteger();
    /** Peers were told of a failure already (the end hook must not tell them of a cancellation too). */
    private volatile boolean aborted;

    private record PendingFailure(String origin, String phase, RuntimeException cause) {}

    private Transport transport;

    private GroupRun(DFF.Settings settings) {
        this.group = settings.group();
        this.config = settings.config();
        this.settings = settings;
    }

    /** Starts {@code settings.group()}'s part of {@code whole}; returns once it runs (peers connected). */
    public static Execution start(Graph whole, RunOptions options, DFF.Settings settings) {
        return new GroupRun(settings).begin(whole, options);
    }

    private Execution begin(Graph whole, RunOptions options) {
        config.requireGroups(GraphCut.groups(whole));
        GroupConfig mine = config.group(group).orElseThrow();
        long fingerprint =
                Fingerprint.of(whole, config, settings.serialization().fingerprint());
        Graph local = GraphCut.forGroup(whole, group, new Bridges(whole, mine));
        WireSettings wire = new WireSettings(
                group,
                fingerprint,
                config.secret().orElse(null),
                config.tls()
                        .filter(t -> t.enabled())
                        .map(t -> new TlsFiles(t.certFile(), t.keyFile(), t.trustFile()))
                        .orElse(null),
                Math.max(1, config.connectTimeoutMs()),
                HANDSHAKE_TIMEOUT_MS,
                config.heartbeatIntervalMs(),
                config.heartbeatTimeoutMs(),
                config.maxFrameBytes());
        linksToOpen.set(outbound.size() + inbound.size() + 1); // +1: released once the outbound ones are done
        transport = Transport.start(wire, resolved(mine), inbound.keySet(), this);
        try {
            for (OutboundLink out : outbound.values()) {
                out.open(transport.connect(
                        out.peer, resolved(config.group(out.peer).orElseThrow())));
                linkOpened();
            }
            linkOpened();
        } catch (RuntimeException e) {
            transport.close();
            throw e;
        }
        RunHooks hooks =
                RunHooks.NONE.onFailure(this::abortPeers).onEnd(this::end).linkStats(this::linkStats);
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
            outbound.put(peer, link);
            boolean[] onDemand = new boolean[forward.size()];
            for (int i = 0; i < onDemand.length; i++) {
                onDemand[i] = forward.get(i).slots() > 0;
            }
            return new SenderNode(
                    link,
                    ids(forward),
                    ids(feedback),
                    onDemand,
                    mine.batchSize(),
                    mine.flushDelayMicros(),
                    config.maxFrameBytes(),
                    settings.serialization());
        }

        @Override
        public ReceiverNode receiver(String peer, List<Edge> forward, List<Edge> feedback) {
            InboundLink link = new InboundLink(group, peer);
            inbound.put(peer, link);
            return new ReceiverNode(
                    link, ids(forward), ids(feedback), config.connectTimeoutMs(), settings.serialization());
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

    private void abortPeers(NodeFailedException failure) {
        aborted = true;
        String origin = group;
        String why = failure.getMessage();
        if (failure.getCause() instanceof GroupFailedException remote) {
            origin = remote.origin();
            why = remote.reason();
        }
        LOG.error("group {} failed: {}", group, failure.getMessage());
        for (PeerLink link : openLinks()) {
            ByteBuf payload = link.alloc().buffer();
            writeUtf(payload, origin);
            writeUtf(payload, why);
            link.send(Frames.ABORT, payload);
            link.close();
        }
    }

    private void end() {
        Execution ex = execution;
        if (ex != null && ex.isStopped() && !aborted) {
            abortPeers(new NodeFailedException("group " + group, "run", new CancellationException("cancelled")));
        }
        for (InboundLink in : inbound.values()) {
            in.drop();
        }
        transport.close();
    }

    private List<PeerLink> openLinks() {
        List<PeerLink> links = new ArrayList<>();
        for (OutboundLink out : outbound.values()) {
            if (out.link() != null) {
                links.add(out.link());
            }
        }
        for (InboundLink in : inbound.values()) {
            if (in.link() != null) {
                links.add(in.link());
            }
        }
        return links;
    }

    private List<LinkStats> linkStats() {
        List<LinkStats> stats = new ArrayList<>();
        outbound.values().forEach(o -> stats.add(o.stats()));
        inbound.values().forEach(i -> stats.add(i.stats()));
        return stats;
    }

    private void fail(String origin, String phase, RuntimeException cause) {
        Execution ex = execution;
        if (ex == null) {
            pendingFailure = new PendingFailure(origin, phase, cause);
        } else {
            ex.fail(origin, phase, cause);
        }
    }

    // ---- PeerHandler: on the event loops ----

    @Override
    public void onOpen(PeerLink link) {
        if (link.inbound()) {
            InboundLink in = inbound.get(link.peerGroup());
            if (in != null) {
                in.onOpen(link);
                linkOpened();
            }
        }
    }

    private void linkOpened() {
        if (linksToOpen.decrementAndGet() == 0) {
            System.out.println("DFF_CONNECTED: " + group);
            System.out.flush();
        }
    }

    @Override
    public void onFrame(PeerLink link, byte type, ByteBuf payload) {
        if (type == Frames.BATCH && link.inbound()) {
            InboundLink in = inbound.get(link.peerGroup());
            if (in != null) {
                in.onBatch(payload);
                return;
            }
        }
        try {
            if (type == Frames.ABORT) {
                String origin = readUtf(payload);
                String why = readUtf(payload);
                fail("group " + origin, "abort", new GroupFailedException(origin, why));
            } else if (!link.inbound() && outbound.containsKey(link.peerGroup())) {
                OutboundLink out = outbound.get(link.peerGroup());
                if (type == Frames.ACK) {
                    out.onAck(payload.readInt());
                } else if (type == Frames.GONE) {
                    out.onGone(payload.readInt());
                } else {
                    unexpected(link, type);
                }
            } else {
                unexpected(link, type);
            }
        } finally {
            payload.release();
        }
    }

    private void unexpected(PeerLink link, byte type) {
        fail(
                "group " + link.peerGroup(),
                "connection",
                new CorruptBatchException("group " + link.peerGroup() + " at " + link.remoteAddress()
                        + " sent an unexpected frame of type " + type));
        link.close();
    }

    @Override
    public void onClosed(PeerLink link, Throwable cause) {
        String reason = null;
        if (link.inbound()) {
            InboundLink in = inbound.get(link.peerGroup());
            reason = in == null ? null : in.onClosed(cause);
        } else {
            OutboundLink out = outbound.get(link.peerGroup());
            reason = out == null ? null : out.onClosed(cause);
        }
        if (reason != null) {
            fail("group " + link.peerGroup(), "connection", new PeerLostException(reason));
        }
    }

    static void writeUtf(ByteBuf out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.writeBytes(bytes);
    }

    static String readUtf(ByteBuf in) {
        int length = in.readInt();
        if (length < 0 || length > in.readableBytes()) {
            throw new CorruptBatchException("a string of " + length + " bytes in a frame of " + in.readableBytes());
        }
        byte[] bytes = new byte[length];
        in.readBytes(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
