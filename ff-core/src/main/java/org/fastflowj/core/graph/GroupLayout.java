package org.fastflowj.core.graph;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.GraphBuildException;
import org.fastflowj.core.Group;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * Checks a program's distributed groups against the rules of the 2022 paper's Fig. 6 and says which
 * group each block belongs to. The tree's root is level 0, its direct children level 1:
 *
 * <ol>
 *   <li>a group name is used once;
 *   <li>a node or combiner gives at most one group, a pipeline or all-to-all several;
 *   <li>a farm's emitter and collector stay in the farm's group; its workers may go to other groups,
 *       each worker whole, through groups created from the farm that include them ({@link FarmGroups}),
 *       an ordered farm's too (its order channel stays with its emitter and collector);
 *   <li>groups come from level 0 or level 1 only, and not from both levels;
 *   <li>a group includes direct children of the block it was created from, each child in one group only;
 *       a group that includes nothing holds its whole block, which then has no other group;
 *   <li>the stages a group takes from a pipeline are contiguous;
 *   <li>once a program has groups, every part of it is in one: no stage or worker is left out.
 * </ol>
 *
 * Every violation is a {@link GraphBuildException} naming the group, the block and the rule, thrown when
 * the graph is compiled: a program that breaks a rule fails before any group starts, the same way in
 * every process.
 */
final class GroupLayout {
    private final Map<String, Group> byName = new HashMap<>();
    private final Map<BuildingBlock, Group> includedIn = new IdentityHashMap<>();
    private final Map<BuildingBlock, String> assignment = new IdentityHashMap<>();
    private Group levelZero;
    private Group levelOne;

    private GroupLayout() {}

    /**
     * The group of every block that roots a group's part of the tree (its blocks below belong to the same
     * group); empty when the program has no group.
     */
    static Map<BuildingBlock, String> assign(BuildingBlock root) {
        GroupLayout layout = new GroupLayout();
        layout.check(root, 0, null);
        if (layout.byName.isEmpty()) {
            return Map.of();
        }
        if (layout.levelZero != null) {
            layout.cover(root, "the program");
        } else if (layout.levelOne != null) {
            for (BuildingBlock child : children(root)) {
                if (FarmGroups.layoutGroups(child).isEmpty()) {
                    throw new GraphBuildException(child + " is left in no group: once a program has groups, every"
                            + " direct child of its root (" + root + ") must create one (createGroup) or be in one");
                }
                layout.cover(child, child.toString());
            }
        }
        FarmGroups.placeWorkers(root, false, layout.assignment);
        return layout.assignment;
    }

    /** {@code farm}: the innermost farm {@code block} is part of, or null. */
    private void check(BuildingBlock block, int level, Farm farm) {
        List<Group> groups = block.groups();
        for (Group g : groups) {
            Group previous = byName.putIfAbsent(g.name(), g);
            if (previous != null) {
                throw new GraphBuildException("group " + g.name() + " is created twice (from " + previous.parent()
                        + " and from " + block + "): group names must be unique");
            }
            if (farm != null) {
                throw FarmGroups.insideWorker(farm, g, block);
            }
            if (FarmGroups.isWorkerGroup(g)) { // a farm's, or an all-to-all's R-Workers'
                checkIncludes(g, block);
                continue;
            }
            if (level > 1) {
                throw new GraphBuildException("group " + g.name() + " is created from " + block + " at level " + level
                        + ": groups come only from the root block (level 0) or its direct children (level 1)");
            }
            if (level == 0) {
                levelZero = g;
            } else {
                levelOne = g;
            }
            if (levelZero != null && levelOne != null) {
                throw new GraphBuildException("group " + levelZero.name() + " is created from the root ("
                        + levelZero.parent() + ") and group " + levelOne.name() + " from a child of it ("
                        + levelOne.parent() + "): groups come from one level only, either the root or its children");
            }
            checkIncludes(g, block);
        }
        groups = FarmGroups.layoutGroups(block);
        if (groups.size() > 1 && block instanceof Farm f) {
            throw new GraphBuildException(f + " creates groups " + groups.get(0).name() + " and "
                    + groups.get(1).name() + ", each holding the whole farm: a farm has one group of its own (its"
                    + " emitter, collector and the workers no other group includes); a further group from it must"
                    + " include the workers it takes");
        }
        if (groups.size() > 1 && block instanceof Node) {
            throw new GraphBuildException(block + " creates groups "
                    + groups.get(0).name() + " and " + groups.get(1).name()
                    + ": a node or combiner gives only one group (it runs on one thread)");
        }
        for (Group g : groups) {
            if (groups.size() > 1 && g.included().isEmpty()) {
                throw new GraphBuildException("group " + g.name() + " includes nothing, so it holds the whole of "
                        + block + ", which also has other groups: include the children each group holds");
            }
        }
        Farm enclosing = block instanceof Farm f ? f : farm;
        for (BuildingBlock child : children(block)) {
            check(child, level + 1, enclosing);
        }
        if (block instanceof Farm f) {
            FarmGroups.checkEmitterAndCollector(f);
        }
    }

    private void checkIncludes(Group g, BuildingBlock parent) {
        if (parent instanceof Node && !g.included().isEmpty()) {
            throw new GraphBuildException(
                    "group " + g.name() + " includes " + g.included().get(0) + ", but it is" + " created from " + parent
                            + ": a group created from a node or combiner always holds all of it");
        }
        List<BuildingBlock> children = children(parent);
        for (BuildingBlock child : g.included()) {
            if (children.stream().noneMatch(c -> c == child)) {
                throw new GraphBuildException("group " + g.name() + " includes " + child + ", which is not a direct"
                        + " child of " + parent + " (the block the group was created from)");
            }
            Group other = includedIn.putIfAbsent(child, g);
            if (other != null) {
                throw new GraphBuildException(child + " is included in group " + other.name()
                        + (other == g ? " twice" : " and in group " + g.name())
                        + ": a block belongs to one group only");
            }
        }
        if (parent instanceof Pipeline pipe) {
            checkContiguous(g, pipe);
        }
    }

    private static void checkContiguous(Group g, Pipeline pipe) {
        List<BuildingBlock> stages = pipe.stages();
        int first = -1;
        int last = -1;
        for (int i = 0; i < stages.size(); i++) {
            BuildingBlock stage = stages.get(i);
            if (g.included().stream().anyMatch(b -> b == stage)) {
                first = first < 0 ? i : first;
                last = i;
            }
        }
        if (first >= 0 && last - first + 1 != g.included().size()) {
            throw new GraphBuildException("group " + g.name() + " takes stages " + first + " and " + last + " of "
                    + pipe + " but not every stage between them: a group's pipeline stages must be contiguous");
        }
    }

    /** Assigns {@code block} (which has groups) to them: whole, or child by child. */
    private void cover(BuildingBlock block, String what) {
        List<Group> groups = FarmGroups.layoutGroups(block);
        if (groups.size() == 1 && groups.get(0).included().isEmpty()) {
            assignment.put(block, groups.get(0).name());
            return;
        }
        for (BuildingBlock child : children(block)) {
            Group g = includedIn.get(child);
            if (g == null) {
                throw new GraphBuildException(child + " is left in no group: " + what + " (" + block
                        + ") is split into groups " + names(groups) + ", so each of its children must be included"
                        + " in one of them");
            }
            assignment.put(child, g.name());
        }
    }

    private static String names(List<Group> groups) {
        List<String> names = new ArrayList<>();
        for (Group g : groups) {
            names.add(g.name());
        }
        return String.join(", ", names);
    }

    /** The blocks one level down: pipeline stages, all-to-all workers, farm workers. */
    static List<BuildingBlock> children(BuildingBlock block) {
        if (block instanceof Pipeline p) {
            return p.stages();
        }
        if (block instanceof AllToAll a) {
            List<BuildingBlock> all = new ArrayList<>(a.firstSet());
            all.addAll(a.secondSet());
            return all;
        }
        if (block instanceof Farm f) {
            return f.workers();
        }
        return List.of();
    }
}
