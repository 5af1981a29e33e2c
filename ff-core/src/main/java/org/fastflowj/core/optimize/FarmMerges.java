package org.fastflowj.core.optimize;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;

/**
 * LEVEL2 rewrites of two neighbouring farms in a pipeline:
 *
 * <pre>
 *   farm(E, a0..an) ─▶ farm(b0..bn, C)        ⟹  farm(E, (a0 b0)..(an bn), C)       equal widths
 *   farm(E, a0..an) ─▶ farm(b0..bm, C)        ⟹  farm(E, a2a(a0..an; b0..bm), C)    other widths
 *   farm(E, a0..an, C) ─▶ farm(F, b0..bm)     ⟹  farm(E, a0..an) ─▶ farm((C F), b0..bm)
 * </pre>
 *
 * The first keeps the multiset of results: every item still goes through one {@code a} and then one
 * {@code b}, only no longer through a second scheduler; two ordered farms merge into one ordered farm,
 * since the order both restore is the input order. The second does the same with a shuffle: each
 * {@code a} hands its outputs round-robin (or on demand, as the second farm's emitter did) to the
 * {@code b}s, so the second emitter's thread goes. The third keeps each item's path: the collector
 * already fanned the workers in, now the merged emitter does.
 */
final class FarmMerges {
    private final RewriteLog log;

    FarmMerges(RewriteLog log) {
        this.log = log;
    }

    /** Equal widths first, all along the pipeline, so that a shuffle joins farms that are already merged. */
    void apply(List<BuildingBlock> stages) {
        for (int i = 0; i + 1 < stages.size(); i++) {
            if (stages.get(i) instanceof Farm a
                    && stages.get(i + 1) instanceof Farm b
                    && !a.isRecoverable()
                    && !b.isRecoverable()
                    && sameWidthMergeable(a, b)) {
                stages.set(i, mergeWorkers(a, b));
                stages.remove(i + 1);
                i--; // the merged farm may merge with the next one too
            }
        }
        for (int i = 0; i + 1 < stages.size(); i++) {
            // A recoverable farm keeps its shape: its workers' outputs must come back to its own collector
            // (or emitter), which is what pairs each answer with the item it was sent.
            if (stages.get(i) instanceof Farm a
                    && stages.get(i + 1) instanceof Farm b
                    && !a.isRecoverable()
                    && !b.isRecoverable()) {
                if (shuffleMergeable(a, b)) {
                    stages.set(i, shuffle(a, b));
                    stages.remove(i + 1);
                } else if (collectorMovable(a, b)) {
                    Node<?, ?> collector = a.collector();
                    Node<?, ?> emitter = b.emitter() == null ? collector : Trees.combine(collector, b.emitter());
                    log.say("moved the collector of %s into the emitter of %s", a, b);
                    stages.set(i, Trees.farm(a, a.emitter(), a.workers(), null));
                    stages.set(i + 1, Trees.farm(b, emitter, b.workers(), b.collector()));
                }
            }
        }
    }

    private static boolean sameWidthMergeable(Farm a, Farm b) {
        if (Trees.loops(a) || Trees.loops(b) || b.emitter() != null || a.collector() != null || steered(a, b)) {
            return false;
        }
        if (a.isOrdered() != b.isOrdered() || a.workers().size() != b.workers().size()) {
            return false;
        }
        for (int i = 0; i < a.workers().size(); i++) {
            if (!Trees.fusible(a.workers().get(i), b.workers().get(i))) {
                return false;
            }
        }
        return true;
    }

    /** As the same-width merge, unordered only: a shuffle has no order to restore. */
    private static boolean shuffleMergeable(Farm a, Farm b) {
        if (Trees.loops(a) || Trees.loops(b) || b.emitter() != null || a.collector() != null || steered(a, b)) {
            return false;
        }
        if (a.isOrdered() || b.isOrdered()) {
            return false;
        }
        for (BuildingBlock w : a.workers()) {
            if (!(w instanceof Node<?, ?> n) || n.isMultiOutput()) {
                return false;
            }
        }
        for (BuildingBlock w : b.workers()) {
            if (!(w instanceof Node<?, ?> n) || n.isMultiInput()) {
                return false;
            }
        }
        return true;
    }

    /** A worker affinity names the workers of its own farm: merged ones would be others. */
    private static boolean steered(Farm a, Farm b) {
        return a.workerAffinity() != null || b.workerAffinity() != null;
    }

    private Farm shuffle(Farm a, Farm b) {
        AllToAll a2a = new AllToAll().firstSet(a.workers()).secondSet(b.workers());
        if (b.isOnDemand()) {
            a2a.onDemand(b.onDemandSlots());
        }
        log.say("joined the workers of %s and %s in an all-to-all; the emitter of the second farm goes", a, b);
        return Trees.farm(a, a.emitter(), List.of(a2a), b.collector());
    }

    private Farm mergeWorkers(Farm a, Farm b) {
        List<BuildingBlock> workers = new ArrayList<>();
        for (int i = 0; i < a.workers().size(); i++) {
            workers.add(Trees.combine(
                    (Node<?, ?>) a.workers().get(i), (Node<?, ?>) b.workers().get(i)));
        }
        Farm merged = Trees.farm(a, a.emitter(), workers, b.collector());
        if (a.isOrdered()) {
            merged.ordered(Math.min(a.maxInFlight(), b.maxInFlight()));
        }
        log.say("merged %s and %s into one farm of combined workers", a, b);
        return merged;
    }

    /**
     * The collector must not restore an order (ordered farm) nor feed back, and the next emitter must not
     * head a loop; a multi-input emitter would see the first farm's worker channels instead of one.
     */
    private static boolean collectorMovable(Farm a, Farm b) {
        return a.collector() != null
                && !a.isOrdered()
                && !a.collector().isMultiOutput()
                && !Trees.loops(a)
                && !Trees.loops(b)
                && (b.emitter() == null || !b.emitter().isMultiInput());
    }
}
