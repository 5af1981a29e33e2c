package org.fastflowj.dist.run.recovery;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.RecoverableAllToAll;
import org.fastflowj.core.graph.RecoverableFarm;
import org.fastflowj.core.graph.Vertex;
import org.fastflowj.core.runtime.recovery.RecoveryHooks;
import org.fastflowj.core.runtime.recovery.Redelivery;
import org.fastflowj.core.runtime.recovery.TakeRecorder;

/**
 * What one group does about losing others ({@link org.fastflowj.core.Farm#recoverable()}, {@link
 * org.fastflowj.core.AllToAll#recoverable()}): which of its peers it may lose without failing; for the
 * recoverable farms whose emitter runs here, a {@link RecoveryLedger} per remote worker (kept by the
 * sender, settled by the receiver) and the emitter's {@link LostItems}; for the recoverable all-to-alls whose
 * L-Workers run here, a ledger per edge from an L-Worker to a remote R-Worker and each L-Worker's lost items;
 * for the remote R-Workers that run here, the {@link TakeOrder} that tags their outputs.
 *
 * <p>A group may be lost when it holds nothing but whole workers of recoverable farms or R-Workers of
 * recoverable all-to-alls: every edge between it and the rest of the program is such a worker's dispatch
 * edge (in) or return edge (out). Anything else in
 * it (a source, a collector, a stage of the pipeline) would take part of the result with it.
 *
 * <p>Threading: built on the thread that starts the group, before any bridge runs; read-only afterwards.
 */
public final class RecoveryPlan implements RecoveryHooks {
    private final Set<String> losable = new HashSet<>();
    private final Map<Edge, RecoveryLedger> byDispatch = new IdentityHashMap<>();
    private final Map<Edge, RecoveryLedger> byReturn = new IdentityHashMap<>();
    private final Map<String, LostItems> byEmitter = new HashMap<>();
    /** Here an all-to-all's home: per return edge of a remote R-Worker, the ledger of each of its input channels. */
    private final Map<Edge, RecoveryLedger[]> answersByReturn = new IdentityHashMap<>();
    /** Here a remote R-Worker's group: per its return edge, the order its first node took its items in. */
    private final Map<Edge, TakeOrder> tagsByReturn = new IdentityHashMap<>();
    /** The same take orders, by the name of the R-Worker's first node. */
    private final Map<String, TakeOrder> takeOrders = new HashMap<>();
    /**
     * Here a group that may be lost: per peer holding a recoverable farm's emitter or all-to-all's L-Workers
     * that this group works for, why losing that peer fails the run all the same.
     */
    private final Map<String, String> homes = new HashMap<>();

    private RecoveryPlan() {}

    public static RecoveryPlan of(Graph whole, String group) {
        RecoveryPlan plan = new RecoveryPlan();
        if (whole.recoverableFarms().isEmpty() && whole.recoverableAllToAlls().isEmpty()) {
            return plan;
        }
        Set<Edge> workerEdges = Collections.newSetFromMap(new IdentityHashMap<>());
        for (RecoverableFarm farm : whole.recoverableFarms()) {
            workerEdges.addAll(farm.dispatch());
            workerEdges.addAll(farm.returns());
        }
        for (RecoverableAllToAll a2a : whole.recoverableAllToAlls()) {
            a2a.dispatch().forEach(workerEdges::addAll);
            workerEdges.addAll(a2a.returns());
        }
        Map<String, Boolean> onlyWorkerEdges = new HashMap<>();
        for (Edge e : whole.edges()) {
            String from = e.from().group();
            String to = e.to().group();
            if (from == null || to == null || from.equals(to)) {
                continue;
            }
            boolean ok = workerEdges.contains(e);
            onlyWorkerEdges.merge(from, ok, Boolean::logicalAnd);
            onlyWorkerEdges.merge(to, ok, Boolean::logicalAnd);
        }
        for (RecoverableFarm farm : whole.recoverableFarms()) {
            String farmGroup = farm.emitter().group();
            for (int i = 0; i < farm.dispatch().size(); i++) {
                Edge dispatch = farm.dispatch().get(i);
                String workerGroup = dispatch.to().group();
                if (farmGroup == null
                        || workerGroup == null
                        || workerGroup.equals(farmGroup)
                        || !onlyWorkerEdges.getOrDefault(workerGroup, false)) {
                    continue;
                }
                plan.losable.add(workerGroup);
                if (workerGroup.equals(group)) {
                    plan.homes.putIfAbsent(
                            farmGroup,
                            "group " + farmGroup + " holds the emitter ("
                                    + farm.emitter().name()
                                    + ") of the recoverable farm whose workers this group runs; a run goes on"
                                    + " without a lost group of workers, never without the farm's own group (with a"
                                    + " MacroDataFlow or ParallelFor: the scheduler's, which holds the tasks and"
                                    + " their inputs)");
                }
                if (!farmGroup.equals(group)) {
                    continue;
                }
                LostItems lost = plan.byEmitter.computeIfAbsent(
                        farm.emitter().name(),
                        n -> new LostItems(n, farm.emitter().forwardOut().size()));
                RecoveryLedger ledger = new RecoveryLedger(
                        "worker " + i + " (" + dispatch.to().name() + ") in group " + workerGroup, lost);
                lost.watch(farm.emitter().forwardOut().indexOf(dispatch), ledger);
                plan.byDispatch.put(dispatch, ledger);
                plan.byReturn.put(farm.returns().get(i), ledger);
            }
        }
        for (RecoverableAllToAll a2a : whole.recoverableAllToAlls()) {
            plan.planAllToAll(a2a, group, onlyWorkerEdges);
        }
        return plan;
    }

    /**
     * A recoverable all-to-all: each R-Worker in a group of its own that holds nothing else may be lost. Its
     * home keeps a ledger per edge from an L-Worker to it, and reads the tag of each of its outputs to know
     * which ledger it settles; its own group records the order its first node took the items in, and tags
     * each output it sends home with it.
     */
    private void planAllToAll(RecoverableAllToAll a2a, String group, Map<String, Boolean> onlyWorkerEdges) {
        String home = a2a.home();
        for (int j = 0; j < a2a.entries().size(); j++) {
            Vertex entry = a2a.entries().get(j);
            String workerGroup = entry.group();
            if (home == null
                    || workerGroup == null
                    || workerGroup.equals(home)
                    || !onlyWorkerEdges.getOrDefault(workerGroup, false)) {
                continue;
            }
            losable.add(workerGroup);
            Edge back = a2a.returns().get(j);
            String worker = "R-Worker " + j + " (" + entry.name() + ") of " + a2a.name() + " in group " + workerGroup;
            List<Edge> in = entry.forwardIn();
            if (group.equals(workerGroup)) {
                homes.putIfAbsent(
                        home,
                        "group " + home + " holds the L-Workers of " + a2a.name() + ", whose R-Worker this group"
                                + " runs; a run goes on without a lost group of R-Workers, never without the"
                                + " all-to-all's own group");
                TakeOrder order = new TakeOrder(worker, in.size());
                takeOrders.put(entry.name(), order);
                tagsByReturn.put(back, order);
            } else if (group.equals(home)) {
                RecoveryLedger[] byChannel = new RecoveryLedger[in.size()];
                for (int c = 0; c < in.size(); c++) {
                    Edge dispatch = in.get(c);
                    Vertex sender = dispatch.from();
                    LostItems lost = byEmitter.computeIfAbsent(
                            sender.name(),
                            n -> new LostItems(n, sender.forwardOut().size()));
                    RecoveryLedger ledger = new RecoveryLedger("the items of " + sender.name() + " to " + worker, lost);
                    lost.watch(sender.forwardOut().indexOf(dispatch), ledger);
                    byDispatch.put(dispatch, ledger);
                    byChannel[c] = ledger;
                }
                answersByReturn.put(back, byChannel);
            }
        }
    }

    /** Whether this group goes on when {@code peer} is lost (its workers' items go to the others). */
    public boolean losable(String peer) {
        return losable.contains(peer);
    }

    /**
     * Why this group, which the run may lose, cannot go on without {@code peer}: the group of the recoverable
     * farm or all-to-all it works for; null for any other peer.
     */
    public String whyNotLosable(String peer) {
        return homes.get(peer);
    }

    /** The peers of {@code group} it may lose, sorted (for the launcher's {@code DFF_LOSABLE:} line). */
    public List<String> losablePeers(Graph whole, String group) {
        TreeSet<String> peers = new TreeSet<>();
        for (Edge e : whole.edges()) {
            String from = e.from().group();
            String to = e.to().group();
            if (group.equals(from) && to != null && losable.contains(to)) {
                peers.add(to);
            } else if (group.equals(to) && from != null && losable.contains(from)) {
                peers.add(from);
            }
        }
        return List.copyOf(peers);
    }

    /** The ledger of the remote worker this edge feeds, or null. */
    public RecoveryLedger ledgerOfDispatch(Edge edge) {
        return byDispatch.get(edge);
    }

    /** The ledger of the remote worker whose outputs this edge carries, or null. */
    public RecoveryLedger ledgerOfReturn(Edge edge) {
        return byReturn.get(edge);
    }

    /**
     * For the return edge of a recoverable all-to-all's remote R-Worker, in its home: per input channel of
     * the R-Worker's first node, the ledger of the L-Worker's items on it (an output's tag names the channel);
     * else null.
     */
    public RecoveryLedger[] answersOfReturn(Edge edge) {
        return answersByReturn.get(edge);
    }

    /** For the return edge of a recoverable all-to-all's R-Worker in this group: the tags of its outputs, or null. */
    public TakeOrder tagsOfReturn(Edge edge) {
        return tagsByReturn.get(edge);
    }

    /** The take order of a recoverable all-to-all's R-Worker whose first node this is, or null. */
    @Override
    public TakeRecorder takeRecorderFor(String nodeName) {
        return takeOrders.get(nodeName);
    }

    /**
     * This group's recovery books at its end, null when they balance: for each remote worker, every item
     * sent to it answered or handed back exactly once; for each emitter, every item handed back sent again.
     * A run whose books do not balance lost or doubled items, and must not end as a success.
     */
    public String unbalancedBooks() {
        StringBuilder why = new StringBuilder();
        for (RecoveryLedger ledger : new LinkedHashSet<>(byDispatch.values())) {
            String wrong = ledger.unbalanced();
            if (wrong != null) {
                why.append(why.length() == 0 ? "" : "; ").append(wrong);
            }
        }
        for (LostItems lost : byEmitter.values()) {
            String wrong = lost.unbalanced();
            if (wrong != null) {
                why.append(why.length() == 0 ? "" : "; ").append(wrong);
            }
        }
        return why.length() == 0 ? null : why.toString();
    }

    /** The emitter's redelivery, by the emitter's name, or null. */
    @Override
    public Redelivery redeliveryFor(String nodeName) {
        return byEmitter.get(nodeName);
    }
}
