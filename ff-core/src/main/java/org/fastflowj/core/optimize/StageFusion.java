package org.fastflowj.core.optimize;

import java.util.ArrayList;
import java.util.List;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * Fuses runs of neighbouring sequential pipeline stages into combiners until {@code excess} threads are
 * gone. A run of {@code L} stages that must lose {@code r} threads becomes {@code L - r} combiners of
 * near-equal length, so the stages' work stays spread evenly over the threads that remain. Pipelines
 * nearer the root go first; inside a farm every worker loses the same share, so the workers stay alike.
 */
final class StageFusion {
    private final RewriteLog log;
    private int excess;

    StageFusion(int excess, RewriteLog log) {
        this.excess = excess;
        this.log = log;
    }

    BuildingBlock fuse(BuildingBlock block) {
        if (excess <= 0 || block instanceof Node || Trees.hasGroups(block)) {
            return block;
        }
        if (block instanceof Pipeline pipe) {
            List<BuildingBlock> stages = fuseRuns(pipe);
            stages.replaceAll(this::fuse);
            return stages.equals(pipe.stages()) ? pipe : Trees.pipeline(pipe, stages);
        }
        if (block instanceof Farm farm) {
            List<BuildingBlock> workers = fuseAlike(farm.workers());
            return workers.equals(farm.workers()) ? farm : Trees.farm(farm, farm.emitter(), workers, farm.collector());
        }
        if (block instanceof AllToAll a2a) {
            List<BuildingBlock> left = fuseAlike(a2a.firstSet());
            List<BuildingBlock> right = fuseAlike(a2a.secondSet());
            return left.equals(a2a.firstSet()) && right.equals(a2a.secondSet())
                    ? a2a
                    : Trees.allToAll(a2a, left, right);
        }
        return block;
    }

    /** Every replica gets the same share of the excess; what they removed together is taken off it. */
    private List<BuildingBlock> fuseAlike(List<BuildingBlock> replicas) {
        int total = excess;
        int share = (total + replicas.size() - 1) / replicas.size();
        int removed = 0;
        List<BuildingBlock> out = new ArrayList<>();
        for (BuildingBlock replica : replicas) {
            excess = share;
            out.add(fuse(replica));
            removed += share - excess;
        }
        excess = Math.max(0, total - removed);
        return out;
    }

    private List<BuildingBlock> fuseRuns(Pipeline pipe) {
        List<BuildingBlock> stages = new ArrayList<>(pipe.stages());
        // A loop needs two stages: a node cannot feed itself back.
        int keep = pipe.isWrapAround() ? 2 : 1;
        List<BuildingBlock> out = new ArrayList<>();
        int start = 0;
        while (start < stages.size()) {
            int end = start + 1;
            while (end < stages.size() && Trees.fusible(stages.get(end - 1), stages.get(end))) {
                end++;
            }
            List<BuildingBlock> run = stages.subList(start, end);
            int remainingAfter = out.size() + (stages.size() - start);
            int remove = Math.min(Math.min(excess, run.size() - 1), Math.max(0, remainingAfter - keep));
            out.addAll(remove > 0 ? split(pipe, start, run, run.size() - remove) : run);
            excess -= remove;
            start = end;
        }
        return out;
    }

    /** {@code run} as {@code parts} combiners of contiguous stages, the longer ones first. */
    private List<BuildingBlock> split(Pipeline pipe, int offset, List<BuildingBlock> run, int parts) {
        List<BuildingBlock> out = new ArrayList<>();
        int from = 0;
        for (int p = 0; p < parts; p++) {
            int length = run.size() / parts + (p < run.size() % parts ? 1 : 0);
            List<BuildingBlock> chunk = run.subList(from, from + length);
            if (chunk.size() == 1) {
                out.add(chunk.get(0));
            } else {
                Node<?, ?> fused = Trees.combineAll(chunk);
                log.say(
                        "fused stages %d-%d of %s into one thread: %s",
                        offset + from, offset + from + length - 1, pipe, fused);
                out.add(fused);
            }
            from += length;
        }
        return out;
    }
}
