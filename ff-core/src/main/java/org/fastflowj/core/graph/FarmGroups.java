package org.fastflowj.core.graph;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.GraphBuildException;
import org.fastflowj.core.Group;
import org.fastflowj.core.Node;

/**
 * The rules for a farm whose workers are spread over several groups (the 2022 paper's future work a). A
 * group created from a farm that {@link Group#include includes} workers is a <em>worker group</em>: it
 * holds those workers whole (a worker pipeline with all its stages). Everything else of the farm (its
 * emitter, its collector and the workers no worker group includes) stays in the farm's <em>home</em>
 * group: a group created from the farm that includes nothing, or else the group of the block that holds
 * the farm. The emitter's and collector's edges to a remote worker become bridge edges, as between the
 * two sets of an all-to-all.
 *
 * <p>Worker groups stand outside the level rule (groups from level 0 or 1, not both): they only move
 * workers out of a farm (or R-Workers out of an all-to-all) that already has a home.
 *
 * <p>An ordered farm may have worker groups too: its emitter and collector, and with them its order
 * channel, stay in the home group, and the per-task marks its workers send after each task cross the
 * bridges in line with the worker's items (a batch message of their own), so the collector reads a
 * remote worker's outputs task by task as a local one's.
 */
final class FarmGroups {
    private FarmGroups() {}

    /**
     * Whether {@code g} moves some of its farm's workers to a group of their own, or some R-Workers of an
     * all-to-all whose L-Workers stay home (no group of the all-to-all includes one): those follow the same
     * rules, the all-to-all's home being the group of the block that holds it. (An all-to-all whose groups
     * take L-Workers too is split by the level rules, as any block.)
     */
    static boolean isWorkerGroup(Group g) {
        if (g.included().isEmpty()) {
            return false;
        }
        if (g.parent() instanceof Farm) {
            return true;
        }
        return g.parent() instanceof AllToAll a2a
                && g.included().stream().allMatch(b -> contains(a2a.secondSet(), b))
                && a2a.groups().stream()
                        .flatMap(other -> other.included().stream())
                        .noneMatch(b -> contains(a2a.firstSet(), b));
    }

    private static boolean contains(List<BuildingBlock> blocks, BuildingBlock block) {
        return blocks.stream().anyMatch(b -> b == block);
    }

    /** The groups of {@code block} that the level rules apply to: all of them but a farm's worker groups. */
    static List<Group> layoutGroups(BuildingBlock block) {
        List<Group> result = new ArrayList<>();
        for (Group g : block.groups()) {
            if (!isWorkerGroup(g)) {
                result.add(g);
            }
        }
        return result;
    }

    /** A group created from a part of a worker: a worker moves to another group whole, or not at all. */
    static GraphBuildException insideWorker(Farm farm, Group g, BuildingBlock block) {
        return new GraphBuildException("group " + g.name() + " is created from " + block + ", which is part of a"
                + " worker of " + farm + ": a farm's worker goes to another group whole; create the group from the"
                + " farm and include the worker (" + farm + ".createGroup(\"" + g.name() + "\").include(worker))");
    }

    /** The emitter and collector run in the farm's own group. */
    static void checkEmitterAndCollector(Farm farm) {
        for (Node<?, ?> n : new Node<?, ?>[] {farm.emitter(), farm.collector()}) {
            if (n != null && !n.groups().isEmpty()) {
                String role = n == farm.emitter() ? "the emitter" : "the collector";
                throw new GraphBuildException("group " + n.groups().get(0).name() + " is created from " + n + ", "
                        + role + " of " + farm + ": a farm's emitter and collector stay in the farm's own group"
                        + " (only its workers may go to other groups); create the group from " + farm
                        + " itself, or from a block that holds it");
            }
        }
    }

    /**
     * Puts the workers of every worker group into it, after the farms' homes were assigned; {@code covered}:
     * an enclosing block is in a group already.
     */
    static void placeWorkers(BuildingBlock block, boolean covered, Map<BuildingBlock, String> assignment) {
        boolean inGroup = covered || assignment.containsKey(block);
        if (block instanceof Farm farm) {
            List<Group> workerGroups = new ArrayList<>(farm.groups());
            workerGroups.removeIf(g -> !isWorkerGroup(g));
            if (!workerGroups.isEmpty()) {
                if (!inGroup) {
                    throw new GraphBuildException(farm + " puts workers in group "
                            + workerGroups.get(0).name()
                            + " but is itself in no group: its emitter, collector and other workers need a group"
                            + " of their own; create one from " + farm + " (createGroup with no include) or from a"
                            + " block that holds it");
                }
                for (Group g : workerGroups) {
                    for (BuildingBlock worker : g.included()) {
                        assignment.put(worker, g.name());
                    }
                }
                return; // nothing inside a farm's workers may have groups (checked before)
            }
        }
        if (block instanceof AllToAll a2a) {
            for (Group g : a2a.groups()) {
                if (!isWorkerGroup(g)) {
                    continue;
                }
                if (!inGroup) {
                    throw new GraphBuildException(a2a + " puts R-Workers in group " + g.name() + " but is itself in"
                            + " no group: its L-Workers and the R-Workers no such group takes need a group of their"
                            + " own; create one from a block that holds it");
                }
                for (BuildingBlock worker : g.included()) {
                    assignment.put(worker, g.name());
                }
            }
        }
        for (BuildingBlock child : GroupLayout.children(block)) {
            placeWorkers(child, inGroup, assignment);
        }
    }
}
