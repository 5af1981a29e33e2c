package org.fastflowj.core.optimize;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * The rewrites that remove threads without taking parallelism away, applied bottom-up to every pipeline:
 * flattening, a stage into the next farm's emitter, the stage after an ordered farm as its collector, and
 * (LEVEL2) farm merges and a collector into the next farm's emitter. A subtree holding a distributed
 * group comes back as it was.
 */
final class StructuralRewrites {
    private final boolean level2;
    private final RewriteLog log;

    StructuralRewrites(boolean level2, RewriteLog log) {
        this.level2 = level2;
        this.log = log;
    }

    BuildingBlock rewrite(BuildingBlock block) {
        if (block instanceof Node || Trees.hasGroups(block)) {
            return block;
        }
        if (block instanceof Pipeline pipe) {
            return pipeline(pipe);
        }
        if (block instanceof Farm farm) {
            List<BuildingBlock> workers = rewriteAll(farm.workers());
            return workers.equals(farm.workers()) ? farm : Trees.farm(farm, farm.emitter(), workers, farm.collector());
        }
        if (block instanceof AllToAll a2a) {
            List<BuildingBlock> left = rewriteAll(a2a.firstSet());
            List<BuildingBlock> right = rewriteAll(a2a.secondSet());
            return left.equals(a2a.firstSet()) && right.equals(a2a.secondSet())
                    ? a2a
                    : Trees.allToAll(a2a, left, right);
        }
        return block;
    }

    private List<BuildingBlock> rewriteAll(List<BuildingBlock> blocks) {
        List<BuildingBlock> out = new ArrayList<>();
        for (BuildingBlock b : blocks) {
            out.add(rewrite(b));
        }
        return out;
    }

    private BuildingBlock pipeline(Pipeline pipe) {
        List<BuildingBlock> stages = new ArrayList<>();
        for (int i = 0; i < pipe.stages().size(); i++) {
            BuildingBlock stage = pipe.stages().get(i);
            BuildingBlock s = rewrite(stage);
            // A wrapped inner pipeline is a loop of its own: its stages cannot join the outer chain.
            if (s instanceof Pipeline inner && !inner.isWrapAround()) {
                log.say("flattened stage %d of %s, a nested %s, into it", i, pipe, stage);
                stages.addAll(inner.stages());
            } else {
                stages.add(s);
            }
        }
        // In a loop the first stage takes the fed-back items and the last one feeds them back: moving
        // either into a farm would move the loop's ends, so a wrapped pipeline keeps its farms as they are.
        if (!pipe.isWrapAround()) {
            if (level2) {
                new FarmMerges(log).apply(stages);
            }
            mergeStagesIntoEmitters(stages);
            makeStagesOrderedCollectors(stages);
        }
        return stages.equals(pipe.stages()) ? pipe : Trees.pipeline(pipe, stages);
    }

    /** {@code node, farm} becomes {@code farm(emitter: node [+ emitter])}: the node's outputs are scheduled as before. */
    private void mergeStagesIntoEmitters(List<BuildingBlock> stages) {
        for (int i = 0; i + 1 < stages.size(); i++) {
            if (stages.get(i) instanceof Node<?, ?> node
                    && !node.isMultiOutput()
                    && stages.get(i + 1) instanceof Farm farm
                    && !Trees.loops(farm)
                    && (farm.emitter() == null || Trees.fusible(node, farm.emitter()))) {
                Node<?, ?> emitter = farm.emitter() == null ? node : Trees.combine(node, farm.emitter());
                log.say("merged stage %s into the emitter of %s", node, farm);
                stages.set(i, Trees.farm(farm, emitter, farm.workers(), farm.collector()));
                stages.remove(i + 1);
            }
        }
    }

    /**
     * {@code orderedFarm, node} becomes {@code orderedFarm(collector: node)}: the ordered farm's default
     * collector restores the order and forwards; the node can restore the order itself (the collector
     * thread calls its svc in order) and, as a plain node, still gets one eosNotify after every worker ended.
     */
    private void makeStagesOrderedCollectors(List<BuildingBlock> stages) {
        for (int i = 0; i + 1 < stages.size(); i++) {
            if (stages.get(i) instanceof Farm farm
                    && farm.isOrdered()
                    && farm.collector() == null
                    && stages.get(i + 1) instanceof Node<?, ?> node
                    && !node.isMultiInput()) {
                log.say("removed the default collector of %s: stage %s collects its workers in order", farm, node);
                stages.set(i, Trees.farm(farm, farm.emitter(), farm.workers(), node));
                stages.remove(i + 1);
            }
        }
    }
}
