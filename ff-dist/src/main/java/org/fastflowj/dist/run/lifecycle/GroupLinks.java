package org.fastflowj.dist.run.lifecycle;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.fastflowj.core.LinkStats;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.dist.net.Frames;
import org.fastflowj.dist.net.PeerHandler;
import org.fastflowj.dist.net.PeerLink;
import org.fastflowj.dist.run.link.CorruptBatchException;
import org.fastflowj.dist.run.link.InboundLink;
import org.fastflowj.dist.run.link.OutboundLink;
import org.fastflowj.dist.run.link.PeerLostException;
import org.fastflowj.dist.run.recovery.RecoveryPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A group's connections, as the transport reports them: batches to the receivers, acknowledgements and
 * "consumer gone" notes to the senders, ABORTs and broken connections to the run as failures, and the
 * news of each group's end to the {@link EndAgreement}, which keeps every connection open until the
 * whole application has ended.
 *
 * <p>Threading: the {@link PeerHandler} calls come on the transport's event loops (one per connection);
 * the link maps are filled before the transport starts and only read afterwards.
 */
public final class GroupLinks implements PeerHandler {
    private static final Logger LOG = LoggerFactory.getLogger(GroupLinks.class);
    /** Where failures go: the group's run (or, before it exists, a note for when it starts). */
    public interface Failures {
        void fail(String origin, String phase, RuntimeException cause);
    }

    private final Map<String, OutboundLink> outbound = new LinkedHashMap<>();
    private final Map<String, InboundLink> inbound = new LinkedHashMap<>();
    private final String group;
    private final Failures failures;
    /** Links not open yet; at zero the group says so once on stderr ({@code DFF_CONNECTED: G}, for the launcher). */
    private final AtomicInteger linksToOpen = new AtomicInteger();
    /** Set before the transport starts (which publishes it to the event loops). */
    private volatile EndAgreement ends;
    /** Which peers this group may lose and go on ({@link RecoveryPlan}); none unless set. */
    private volatile RecoveryPlan recovery;
    /** The peers lost so far (the run went on without them). */
    private final Set<String> lost = ConcurrentHashMap.newKeySet();
    /** Told of each peer lost, once (the group's memory for its later runs). */
    private volatile Consumer<String> onLoss = peer -> {};

    public GroupLinks(String group, Failures failures) {
        this.group = group;
        this.failures = failures;
    }

    /** Before the transport starts: the groups whose end this group's end waits for, itself included. */
    public void expectEnds(Set<String> groups) {
        ends = new EndAgreement(group, groups, this::openLinks);
    }

    /** Before the transport starts: the peers this group may lose without failing. */
    public void recovery(RecoveryPlan plan) {
        recovery = plan;
    }

    /** Before the transport starts: what hears of each peer this group loses. */
    public void onLoss(Consumer<String> heard) {
        onLoss = heard;
    }

    /**
     * Before the transport starts: {@code peer}, which this group may lose, was lost in an earlier run of the
     * program and has no process left: this run goes on without it from the start, as if it had been lost.
     * No connection to it is made, and one it makes is closed.
     */
    public void loseBeforeStart(String peer) {
        if (inbound.containsKey(peer)) {
            linkOpened(); // counted as opened: DFF_CONNECTED says the links that can open did
        }
        lose(peer, "lost in an earlier run of this program");
    }

    /** Whether {@code peer} was lost (connect to it no more). */
    public boolean isLost(String peer) {
        return lost.contains(peer);
    }

    /** The peers lost so far, the run going on without them. */
    public Set<String> lostGroups() {
        return Set.copyOf(lost);
    }

    /** When this group may end; set by {@link #expectEnds}. */
    public EndAgreement ends() {
        return ends;
    }

    /** Before the transport starts: the link to {@code peer}, one per peer group this group sends to. */
    public void addOutbound(String peer, OutboundLink link) {
        outbound.put(peer, link);
    }

    /** Before the transport starts: the link from {@code peer}, one per peer group this group receives from. */
    public void addInbound(String peer, InboundLink link) {
        inbound.put(peer, link);
    }

    /** The links this group sends on, by peer group (a read-only view). */
    public Map<String, OutboundLink> outbound() {
        return Collections.unmodifiableMap(outbound);
    }

    /** The links this group receives on, by peer group (a read-only view). */
    public Map<String, InboundLink> inbound() {
        return Collections.unmodifiableMap(inbound);
    }

    /** Before the transport starts: counts the links to wait for (+1, released by {@link #outboundOpened}). */
    public void expectLinks() {
        linksToOpen.set(outbound.size() + inbound.size() + 1);
    }

    /** Every outbound link is connected (the caller connects them one by one, then calls this). */
    public void outboundOpened() {
        for (int i = 0; i <= outbound.size(); i++) {
            linkOpened();
        }
    }

    private void linkOpened() {
        if (linksToOpen.decrementAndGet() == 0) {
            ControlLine.emit(System.err, "DFF_CONNECTED: " + group); // a status line: stdout is the program's
        }
    }

    /**
     * Tells every connected peer that {@code origin} failed, then closes the links after the ABORT (see
     * {@link PeerLink#closeAfterLastWord}); {@code whenClosed} runs once every link closed.
     */
    void abortAll(String origin, String why, Runnable whenClosed) {
        List<PeerLink> open = openLinks();
        AtomicInteger closing = new AtomicInteger(open.size());
        if (open.isEmpty()) {
            whenClosed.run();
        }
        for (PeerLink link : open) {
            sendAbort(link, origin, why);
            link.closeAfterLastWord(ABORT_LINGER_MS).addListener(closed -> {
                if (closing.decrementAndGet() == 0) {
                    whenClosed.run();
                }
            });
        }
    }

    /** How long a link that carried an ABORT waits for its peer to close before it closes itself. */
    private static final long ABORT_LINGER_MS = 500;

    /** Tells every connected peer that {@code origin} failed, leaving the links open (the JVM is halting). */
    void abortAllLeavingOpen(String origin, String why) {
        for (PeerLink link : openLinks()) {
            sendAbort(link, origin, why);
        }
    }

    private static void sendAbort(PeerLink link, String origin, String why) {
        ByteBuf payload = link.alloc().buffer();
        writeUtf(payload, origin);
        writeUtf(payload, why);
        link.send(Frames.ABORT, payload);
    }

    /** Releases batches no receiver will read (the run ended or failed). */
    void dropUnread() {
        inbound.values().forEach(InboundLink::drop);
    }

    /** The links that opened (some may have closed since). */
    List<PeerLink> openLinks() {
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

    public List<LinkStats> stats() {
        List<LinkStats> stats = new ArrayList<>();
        outbound.values().forEach(o -> stats.add(o.stats()));
        inbound.values().forEach(i -> stats.add(i.stats()));
        return stats;
    }

    // ---- PeerHandler: on the event loops ----

    @Override
    public void onOpen(PeerLink link) {
        if (lost.contains(link.peerGroup())) {
            link.close(); // a lost group is heard no more, even if its process lives on
            return;
        }
        if (link.inbound()) {
            InboundLink in = inbound.get(link.peerGroup());
            if (in != null) {
                in.onOpen(link);
                ends.linkOpened(link); // after onOpen: news passed on from now on takes this link too
                linkOpened();
            }
        }
    }

    @Override
    public void onFrame(PeerLink link, byte type, ByteBuf payload) {
        if (type == Frames.BATCH && link.inbound()) {
            InboundLink in = inbound.get(link.peerGroup());
            if (in != null) {
                in.onBatch(payload); // ownership passes to the receiver, which releases it
                return;
            }
        }
        try {
            if (type == Frames.ABORT) {
                onAbort(link, payload);
            } else if (type == Frames.ENDED) {
                onEnded(link, payload);
            } else if (!link.inbound() && outbound.containsKey(link.peerGroup())) {
                OutboundLink out = outbound.get(link.peerGroup());
                if (type == Frames.ACK) {
                    out.onAck(payload.readInt(), payload.readLong());
                } else if (type == Frames.TAKEN) {
                    out.onTaken(payload.readInt(), payload.readInt(), payload.readByte());
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

    /**
     * An ABORT: the origin it names, and why, capped ({@link #MAX_REASON_BYTES}) before it is stored, logged or
     * passed on. An origin that is not a group this one runs with cannot have failed: the ABORT then counts
     * as the peer's own.
     */
    private void onAbort(PeerLink link, ByteBuf payload) {
        String origin = readName(payload);
        String why = readCapped(payload, MAX_REASON_BYTES);
        if (origin == null || !ends.expects(origin)) {
            why = link + " sent an ABORT naming " + shown(origin) + " as its origin, which is not a group of this run: "
                    + why;
            origin = link.peerGroup();
        }
        failures.fail("group " + origin, "abort", new GroupFailedException(origin, why));
    }

    /** An ENDED: only a group this one runs with can end; a peer that names another breaks the protocol. */
    private void onEnded(PeerLink link, ByteBuf payload) {
        String ended = readName(payload);
        if (ended == null || !ends.expects(ended)) {
            refuse(
                    link,
                    "it sent ENDED for " + shown(ended) + ", which is not a group this group runs with ("
                            + ends.expectedNames() + ")");
        } else {
            ends.heard(ended);
        }
    }

    private void refuse(PeerLink link, String why) {
        failures.fail(
                "group " + link.peerGroup(),
                "connection",
                new CorruptBatchException(link + " broke the protocol: " + why));
        link.close();
    }

    private void unexpected(PeerLink link, byte type) {
        failures.fail(
                "group " + link.peerGroup(),
                "connection",
                new CorruptBatchException("group " + link.peerGroup() + " at " + link.remoteAddress()
                        + " sent an unexpected frame of type " + type));
        link.close();
    }

    @Override
    public void onClosed(PeerLink link, Throwable cause) {
        if (lost.contains(link.peerGroup())) {
            // Its other link, closed by the same death (or by lose()): expected, even once losing it made
            // every group's end heard.
            return;
        }
        RecoveryPlan plan = recovery;
        if (plan != null && plan.losable(link.peerGroup()) && !ends.complete()) {
            lose(
                    link.peerGroup(),
                    "lost the connection " + (link.inbound() ? "from" : "to") + " group "
                            + link.peerGroup() + " at " + link.remoteAddress()
                            + (cause == null ? " (closed by the peer)" : ": " + cause.getMessage()));
            return;
        }
        String reason;
        if (link.inbound()) {
            InboundLink in = inbound.get(link.peerGroup());
            reason = in == null ? null : in.onClosed(cause);
        } else {
            OutboundLink out = outbound.get(link.peerGroup());
            reason = out == null ? null : out.onClosed(cause);
        }
        if (reason == null && !ends.complete()) {
            // Clean for the data, yet a peer closes only once every group's part ended and it told so.
            reason = "lost the connection " + (link.inbound() ? "from" : "to") + " group " + link.peerGroup()
                    + " at " + link.remoteAddress() + " before the application ended (still running: "
                    + ends.stillRunning() + ")" + (cause == null ? "" : ": " + cause.getMessage());
            String needed = plan == null ? null : plan.whyNotLosable(link.peerGroup());
            reason += needed == null ? "" : ": " + needed;
        }
        if (reason != null) {
            failures.fail("group " + link.peerGroup(), "connection", new PeerLostException(reason));
        }
    }

    /**
     * A group of recoverable farms' workers is gone (died, or silent past the heartbeat): the run goes on.
     * Its links close both ways (a frozen peer that resumes is heard no more), its receiver ends its edges,
     * its sender hands its workers' unanswered items back to their emitters, and its end counts as heard.
     * Prints {@code DFF_LOST: <group>} on stderr for the launcher. Once per peer.
     */
    private void lose(String peer, String why) {
        if (!lost.add(peer)) {
            return;
        }
        LOG.warn(
                "group {} lost group {} and goes on without it ({}): its workers' unanswered items go to the"
                        + " other workers",
                group,
                peer,
                why);
        ControlLine.emit(System.err, "DFF_LOST: " + peer);
        onLoss.accept(peer);
        InboundLink in = inbound.get(peer);
        if (in != null) {
            in.lose(why);
            if (in.link() != null) {
                in.link().close();
            }
        }
        OutboundLink out = outbound.get(peer);
        if (out != null) {
            out.lose();
            if (out.link() != null) {
                out.link().close();
            }
        }
        ends.heard(peer);
    }

    static void writeUtf(ByteBuf out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.writeBytes(bytes);
    }

    /** The longest group name read from a peer; a longer one is no group of the run. */
    static final int MAX_NAME_BYTES = 1024;
    /** The longest failure reason kept from a peer's ABORT; the rest is cut when it is read. */
    static final int MAX_REASON_BYTES = 4096;

    /** A group name, or null when it is longer than {@link #MAX_NAME_BYTES} (skipped unread). */
    static String readName(ByteBuf in) {
        int length = readLength(in);
        if (length > MAX_NAME_BYTES) {
            in.skipBytes(length);
            return null;
        }
        return in.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }

    /** A string of at most {@code maxBytes} (of UTF-8), saying how much of it was cut. */
    static String readCapped(ByteBuf in, int maxBytes) {
        int length = readLength(in);
        if (length <= maxBytes) {
            return in.readCharSequence(length, StandardCharsets.UTF_8).toString();
        }
        String kept = in.readCharSequence(maxBytes, StandardCharsets.UTF_8).toString();
        in.skipBytes(length - maxBytes);
        return kept + "... (" + (length - maxBytes) + " bytes cut)";
    }

    /** A name read from a peer, for messages: quoted, and short. */
    private static String shown(String name) {
        if (name == null) {
            return "a name longer than " + MAX_NAME_BYTES + " bytes";
        }
        return "'" + (name.length() > 64 ? name.substring(0, 64) + "..." : name) + "'";
    }

    private static int readLength(ByteBuf in) {
        int length = in.readInt();
        if (length < 0 || length > in.readableBytes()) {
            throw new CorruptBatchException("a string of " + length + " bytes in a frame of " + in.readableBytes());
        }
        return length;
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
