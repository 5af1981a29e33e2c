package org.fastflowj.dist.run;

import io.netty.util.internal.PlatformDependent;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCut;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.dist.run.bridge.ReceiverTask;
import org.fastflowj.dist.run.bridge.SenderTask;
import org.fastflowj.dist.run.lifecycle.GroupLinks;
import org.fastflowj.dist.run.link.InboundLink;
import org.fastflowj.dist.run.link.OutboundLink;
import org.fastflowj.dist.run.recovery.RecoveryLedger;
import org.fastflowj.dist.run.recovery.RecoveryPlan;
import org.fastflowj.dist.run.recovery.TakeOrder;

/**
 * Makes the bridges of one group as {@link GraphCut} asks for them: per peer a {@link SenderTask} over an
 * {@link OutboundLink} or a {@link ReceiverTask} over an {@link InboundLink}, each link registered with the
 * group's {@link GroupLinks} so the transport can reach it. Edges are named by their position in the whole
 * program's graph, the same in every process.
 *
 * <p>Threading: used once, on the thread that starts the group, before the transport starts.
 */
final class GroupBridges implements GraphCut.BridgeFactory {
    private final Map<Edge, Integer> edgeIds = new IdentityHashMap<>();
    private final String group;
    private final DffConfig config;
    private final GroupConfig mine;
    private final DFF.Settings settings;
    private final GroupLinks links;
    private final RecoveryPlan recovery;

    GroupBridges(Graph whole, DFF.Settings settings, GroupLinks links, RecoveryPlan recovery) {
        this.recovery = recovery;
        this.group = settings.group();
        this.config = settings.config();
        this.mine = config.group(group).orElseThrow();
        this.settings = settings;
        this.links = links;
        for (int i = 0; i < whole.edges().size(); i++) {
            edgeIds.put(whole.edges().get(i), i);
        }
    }

    @Override
    public SenderTask sender(String peer, List<Edge> forward, List<Edge> feedback) {
        int credits = credits(mine, forward, feedback);
        OutboundLink link = new OutboundLink(
                group,
                peer,
                credits,
                byteWindow(config.group(peer).orElseThrow().maxBufferedBytesPerLink()),
                ids(forward),
                ids(feedback));
        link.stallTimeoutMs(config.stallTimeoutMs());
        link.neededBecause(recovery.whyNotLosable(peer));
        links.addOutbound(peer, link);
        int[] onDemandSlots = forward.stream().mapToInt(Edge::slots).toArray();
        String starved = describeCreditStarvation(
                group,
                peer,
                (int) Arrays.stream(onDemandSlots).filter(slots -> slots > 0).count(),
                credits);
        if (starved != null) {
            System.err.println(starved);
        }
        SenderTask sender = new SenderTask(
                link,
                ids(forward),
                ids(feedback),
                onDemandSlots,
                mine.batchSize(),
                mine.flushDelayMicros(),
                config.maxFrameBytes(),
                settings.serialization());
        sender.maxCachedBytesPerLink(config.maxCachedBytesPerLink());
        if (recovery.losable(peer)) {
            link.recoverable();
        }
        RecoveryLedger[] ledgers =
                forward.stream().map(recovery::ledgerOfDispatch).toArray(RecoveryLedger[]::new);
        if (Arrays.stream(ledgers).anyMatch(Objects::nonNull)) {
            sender.recoverWith(ledgers);
        }
        TakeOrder[] tags = forward.stream().map(recovery::tagsOfReturn).toArray(TakeOrder[]::new);
        if (Arrays.stream(tags).anyMatch(Objects::nonNull)) {
            sender.tagWith(tags);
        }
        return sender;
    }

    @Override
    public ReceiverTask receiver(String peer, List<Edge> forward, List<Edge> feedback) {
        GroupConfig sender = config.group(peer).orElseThrow();
        // The credits the peer's sender takes (see sender() there): the fingerprint makes both configs agree.
        InboundLink link =
                new InboundLink(group, peer, credits(sender, forward, feedback), mine.maxBufferedBytesPerLink());
        link.neededBecause(recovery.whyNotLosable(peer));
        links.addInbound(peer, link);
        boolean[] onDemand = new boolean[forward.size()];
        for (int i = 0; i < onDemand.length; i++) {
            onDemand[i] = forward.get(i).slots() > 0;
        }
        boolean[] toOrderedCollector = new boolean[forward.size()];
        for (int i = 0; i < toOrderedCollector.length; i++) {
            toOrderedCollector[i] = forward.get(i).to().orderRole() == Vertex.OrderRole.COLLECT;
        }
        ReceiverTask receiver = new ReceiverTask(
                link,
                ids(forward),
                ids(feedback),
                onDemand,
                toOrderedCollector,
                config.connectTimeoutMs(),
                sender.maxBatchSize(), // the most one frame holds
                settings.serialization());
        receiver.maxObjectsPerItem(config.maxObjectsPerItem());
        receiver.maxCachedBytesPerLink(config.maxCachedBytesPerLink());
        RecoveryLedger[] answers = new RecoveryLedger[receiver.outputSlots()];
        boolean any = false;
        for (int i = 0; i < forward.size(); i++) {
            answers[i * 2] = recovery.ledgerOfReturn(forward.get(i));
            any |= answers[i * 2] != null;
        }
        for (int i = 0; i < feedback.size(); i++) {
            answers[i * 2 + 1] = recovery.ledgerOfReturn(feedback.get(i));
            any |= answers[i * 2 + 1] != null;
        }
        if (any) {
            receiver.recoverWith(answers);
        }
        RecoveryLedger[][] byTag = new RecoveryLedger[receiver.outputSlots()][];
        boolean anyTagged = false;
        for (int i = 0; i < forward.size(); i++) {
            byTag[i * 2] = recovery.answersOfReturn(forward.get(i));
            anyTagged |= byTag[i * 2] != null;
        }
        if (anyTagged) {
            receiver.recoverTaggedWith(byTag);
        }
        return receiver;
    }

    /**
     * The start-up line that warns of a link whose credits starve its on-demand workers, or null: an
     * on-demand worker gets its next item only once it took the last, so with fewer batches allowed in
     * flight than workers behind the link, at fine grain (one item per batch) a worker waits for another's
     * batch to be acknowledged while items wait for it.
     */
    static String describeCreditStarvation(String group, String peer, int onDemandWorkers, int credits) {
        if (onDemandWorkers <= credits) {
            return null;
        }
        return "ff-dist: group " + group + "'s link to " + peer + " carries the items of " + onDemandWorkers
                + " on-demand workers but may have only " + credits + " batch" + (credits == 1 ? "" : "es")
                + " unacknowledged (messageOTF): a worker may wait for another's batch to be acknowledged;"
                + " a messageOTF of at least " + onDemandWorkers + " lets each have an item in flight";
    }

    /**
     * A connection that carries only an all-to-all's shuffle (a horizontal cut between two groups that
     * both hold part of it) takes the sending group's {@code internalMessageOTF}; any other its
     * {@code messageOTF}.
     */
    static int credits(GroupConfig sendingGroup, List<Edge> forward, List<Edge> feedback) {
        boolean shuffleOnly =
                !forward.isEmpty() && feedback.isEmpty() && forward.stream().allMatch(Edge::joinsAllToAllSets);
        return shuffleOnly ? sendingGroup.internalMessageOTF() : sendingGroup.messageOTF();
    }

    /**
     * The byte window is what the receiving group buffers per link (more in flight would wait in the
     * sockets while it stops reading; the fingerprint makes both ends read the same value), but no more than
     * a quarter of this JVM's direct memory: while the receiver stops reading, the unacknowledged batches
     * wait in this group's outbound buffers, and a sender with a small heap must not run out of direct
     * memory because its peer buffers more than it can hold.
     */
    static long byteWindow(long receiverBuffers) {
        return Math.min(receiverBuffers, Math.max(1L << 20, PlatformDependent.maxDirectMemory() / 4));
    }

    private int[] ids(List<Edge> edges) {
        return edges.stream().mapToInt(edgeIds::get).toArray();
    }
}
