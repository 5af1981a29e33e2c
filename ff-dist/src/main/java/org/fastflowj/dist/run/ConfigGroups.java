package org.fastflowj.dist.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.GraphBuildException;
import org.fastflowj.core.Group;
import org.fastflowj.core.graph.GraphCompiler;
import org.fastflowj.dist.BlockList;
import org.fastflowj.dist.ConfigException;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupConfig;
import org.fastflowj.dist.run.TreeNames.Place;
import org.fastflowj.dist.run.TreeNames.Role;

/**
 * Makes a program's groups from a config whose groups list their blocks ({@link GroupConfig#blocks()}), with
 * the calls the program would make: {@code parent.createGroup(name).include(child)...} for children of one
 * block, {@code block.createGroup(name)} for a group that holds a whole block. Then the groups go through
 * the same layout rules as groups made in code ({@link GraphCompiler#checkGroups}), and a broken rule is
 * reported at the group's {@code blocks} in the config.
 *
 * <p>A group that lists one direct child of the root could be made either way: from the child
 * ({@code reader.createGroup("G1")}, level 1) or from the root, including the child (level 0). Both give it
 * the same blocks; the level is the one the other groups need, since groups come from one level only: the
 * root's when another group takes several of the root's children, else the child's.
 *
 * <p>Threading: called on the thread that starts the run, before the tree is compiled.
 */
final class ConfigGroups {
    /**
     * The groups made here, each with the layout of the config it came from: a tree run again with the same
     * config keeps them, while groups the program made itself are refused next to a config's.
     */
    private static final Map<Group, String> MADE = Collections.synchronizedMap(new WeakHashMap<>());

    private final DffConfig config;
    private final TreeNames tree;

    private ConfigGroups(DffConfig config, TreeNames tree) {
        this.config = config;
        this.tree = tree;
    }

    /**
     * Gives {@code root} the groups {@code config} lists the blocks of, unless a run with the same layout
     * gave them already, and checks them against the layout rules.
     *
     * @throws ConfigException at the culprit in the config: a string that names no block, or several; a range
     *     out of bounds; blocks of different parents in one group; groups also made in code; a layout rule
     *     broken (its rule kept in the message)
     */
    static void place(BuildingBlock root, DffConfig config) {
        new ConfigGroups(config, TreeNames.of(root)).place();
    }

    private void place() {
        String layout = layout();
        List<Group> existing = tree.groups();
        if (existing.isEmpty()) {
            List<Planned> plans = plans();
            boolean fromRoot = plans.stream().anyMatch(this::needsTheRootsLevel);
            for (Planned plan : plans) {
                MADE.put(plan.create(fromRoot, tree.root()), layout);
            }
        } else if (!existing.stream().allMatch(g -> layout.equals(MADE.get(g)))) {
            throw alreadyGrouped(existing);
        }
        check();
    }

    /** Each group's blocks, resolved, with the block they are children of. */
    private List<Planned> plans() {
        ListedBlocks listed = new ListedBlocks(tree, config.source());
        List<Planned> plans = new ArrayList<>();
        List<GroupConfig> groups = config.groups();
        for (int i = 0; i < groups.size(); i++) {
            GroupConfig group = groups.get(i);
            List<BlockList.Entry> entries = group.blocks().orElseThrow().entries();
            List<Place> places = new ArrayList<>();
            BlockList.Entry firstEntry = entries.get(0);
            for (int j = 0; j < entries.size(); j++) {
                BlockList.Entry entry = entries.get(j);
                String path = "groups[" + i + "].blocks[" + j + "]";
                for (Place place : listed.resolve(group.name(), entry, path)) {
                    if (!places.isEmpty() && place.parent() != places.get(0).parent()) {
                        throw apart(group.name(), path, entry, firstEntry, places.get(0), place);
                    }
                    places.add(place);
                }
            }
            plans.add(new Planned(group.name(), places));
        }
        return plans;
    }

    /** Whether {@code plan} makes a group of the root's level, so that the others must come from it too. */
    private boolean needsTheRootsLevel(Planned plan) {
        Place first = plan.places().get(0);
        if (first.role() == Role.ROOT) {
            return true;
        }
        return first.parent() == tree.root() && plan.places().size() > 1 && !(tree.root() instanceof Farm);
    }

    private ConfigException apart(
            String group, String path, BlockList.Entry entry, BlockList.Entry firstEntry, Place first, Place other) {
        return new ConfigException(
                config.source(),
                entry.line(),
                entry.column(),
                path + ": group '" + group + "' lists \"" + firstEntry.text() + "\" (" + first.describe() + ") and \""
                        + entry.text() + "\" (" + other.describe() + "): a group takes children of one block only,"
                        + " the block it is made from; expected blocks with the same parent, or a group for each");
    }

    private ConfigException alreadyGrouped(List<Group> existing) {
        BlockList first = config.groups().get(0).blocks().orElseThrow();
        String names = existing.stream().map(Group::name).collect(Collectors.joining(", "));
        boolean byAConfig = existing.stream().allMatch(MADE::containsKey);
        String problem = byAConfig
                ? "the program's tree has groups (" + names + ") from another config's \"blocks\" already, made by"
                        + " an earlier run; expected a tree that takes its groups from one config: build it anew"
                : "group '" + config.groups().get(0).name() + "' lists its blocks, but the program also creates"
                        + " groups in code (" + names + "); expected the groups in the config or in the code, not"
                        + " both: remove the blocks lists, or the createGroup calls";
        return new ConfigException(config.source(), first.line(), first.column(), "groups[0].blocks: " + problem);
    }

    /** The layout rules, a broken one reported at the blocks of the first group its message names. */
    private void check() {
        try {
            GraphCompiler.checkGroups(tree.root());
        } catch (GraphBuildException e) {
            int culprit = culprit(e.getMessage());
            BlockList blocks = config.groups().get(culprit).blocks().orElseThrow();
            throw new ConfigException(
                    config.source(),
                    blocks.line(),
                    blocks.column(),
                    "groups[" + culprit + "].blocks: the groups as listed break a layout rule: " + e.getMessage(),
                    e);
        }
    }

    /** The index of the group {@code message} names first; the first group when it names none. */
    private int culprit(String message) {
        int culprit = 0;
        int earliest = Integer.MAX_VALUE;
        List<GroupConfig> groups = config.groups();
        for (int i = 0; i < groups.size(); i++) {
            Matcher named = Pattern.compile(
                            "groups? " + Pattern.quote(groups.get(i).name()) + "(?![\\w-])")
                    .matcher(message);
            if (named.find() && named.start() < earliest) {
                earliest = named.start();
                culprit = i;
            }
        }
        return culprit;
    }

    /** The config's groups and their lists, as text: two configs with the same layout make the same groups. */
    private String layout() {
        return config.groups().stream()
                .map(g -> g.name() + "="
                        + g.blocks().orElseThrow().entries().stream()
                                .map(BlockList.Entry::text)
                                .collect(Collectors.joining("\u0000")))
                .collect(Collectors.joining("\n"));
    }

    /** A group to make: its name and the blocks it takes, all children of one block (or the root alone). */
    private record Planned(String name, List<Place> places) {
        /** Makes the group; {@code fromRoot}: a group of one child of the root is made from the root. */
        Group create(boolean fromRoot, BuildingBlock root) {
            Place first = places.get(0);
            boolean wholeBlock = places.size() == 1
                    && (first.role() == Role.ROOT
                            || first.role() == Role.EMITTER
                            || first.role() == Role.COLLECTOR
                            || (first.parent() == root && !fromRoot && !(root instanceof Farm)));
            if (wholeBlock) {
                return first.block().createGroup(name);
            }
            Group group = first.parent().createGroup(name);
            for (Place place : places) {
                group.include(place.block());
            }
            return group;
        }
    }
}
