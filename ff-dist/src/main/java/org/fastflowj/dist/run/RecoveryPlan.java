package org.fastflowj.dist.run;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.fastflowj.core.graph.Edge;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.RecoverableFarm;
import org.fastflowj.core.runtime.Redelivery;

/**
 * What one group does about losing others ({@link org.fastflowj.core.Farm#recoverable()}): which of its
 * peers it may lose without failing, and, for the recoverable farms whose emitter runs here, a
 * {@link RecoveryLedger} per remote worker (kept by the sender, settled by the receiver) and the emitter's
 * {@link LostItems}.
 *
 * <p>A group may be lost when it holds nothing but whole workers of recoverable farms: every edge between it
 * and the rest of the program is such a worker's dispatch edge (in) or return edge (out). Anything else in
 * it (a source, a collector, a stage of the pipeline) would take part of the result with it.
 *
 * <p>Threading: built on the thread that starts the group, before any bridge runs; read-only afterwards.
 */
final class RecoveryPlan {
    private final Set<String> losable = new HashSet<>();
    private final Map<Edge, RecoveryLedger> byDispatch = new IdentityHashMap<>();
    private final Map<Edge, RecoveryLedger> byReturn = new IdentityHashMap<>();
    private final Map<String, LostItems> byEmitter = new HashMap<>();

    private RecoveryPlan() {}

    static RecoveryPlan of(Graph whole, String group) {
        RecoveryPlan plan = new RecoveryPlan();
        if (whole.recoverableFarms().isEmpty()) {
            return plan;
        }
        Set<Edge> workerEdges = Collections.newSetFromMap(new IdentityHashMap<>());
        for (RecoverableFarm farm : whole.recoverableFarms()) {
            workerEdges.addAll(farm.dispatch());
            workerEdges.addAll(farm.returns());
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
                if (!farmGroup.equals(group)) {
                    continue;
                }
                LostItems lost = plan.byEmitter.computeIfAbsent(
                        farm.emitter().name(),
                        n -> new LostItems(farm.emitter().forwardOut().size()));
                RecoveryLedger ledger = new RecoveryLedger(
                        "worker " + i + " (" + dispatch.to().name() + ") in group " + workerGroup, lost);
                lost.watch(farm.emitter().forwardOut().indexOf(dispatch), ledger);
                plan.byDispatch.put(dispatch, ledger);
                plan.byReturn.put(farm.returns().get(i), ledger);
            }
        }
        return plan;
    }

    /** Whether this group goes on when {@code peer} is lost (its workers' items go to the others). */
    boolean losable(String peer) {
        return losable.contains(peer);
    }

    /** The peers of {@code group} it may lose, sorted (for the launcher's {@code DFF_LOSABLE:} line). */
    List<String> losablePeers(Graph whole, String group) {
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
    RecoveryLedger ledgerOfDispatch(Edge edge) {
        return byDispatch.get(edge);
    }

    /** The ledger of the remote worker whose outputs this edge carries, or null. */
    RecoveryLedger ledgerOfReturn(Edge edge) {
        return byReturn.get(edge);
    }

    /** The emitter's redelivery, by the emitter's name, or null. */
    Redelivery redeliveryFor(String nodeName) {
        return byEmitter.get(nodeName);
    }
}
