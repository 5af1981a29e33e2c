package org.fastflowj.dist.run;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Pipeline;
import org.fastflowj.dist.BlockList;
import org.fastflowj.dist.ConfigException;
import org.fastflowj.dist.run.TreeNames.Place;
import org.fastflowj.dist.run.TreeNames.Role;

/**
 * What a string of a group's {@code blocks} list names in the program's tree:
 *
 * <ul>
 *   <li>{@code "reader"}: the block named {@code reader};
 *   <li>{@code "search.workers[2-3]"}, {@code "search.workers[2]"}: workers 2 to 3 (or 2) of the farm named
 *       {@code search}; likewise {@code NAME.left[...]} and {@code NAME.right[...]} for an all-to-all's L- and
 *       R-Workers, {@code NAME.stages[...]} for a pipeline's stages. Indexes count from 0, both ends included.
 * </ul>
 *
 * A string that is the name of a block is that block, even when it reads as an index range. Every problem is
 * a {@link ConfigException} at the string's place in the config, naming the group and the string.
 *
 * <p>Threading: used on the thread that starts the run.
 */
final class ListedBlocks {
    private static final Pattern BY_INDEX =
            Pattern.compile("(.+)\\.(stages|workers|left|right)\\[\\s*(\\d{1,9})\\s*(?:-\\s*(\\d{1,9})\\s*)?]");
    /** The names an unknown name's message lists: enough to spot a typo, not a page of them. */
    private static final int NAMES_SHOWN = 20;

    private final TreeNames tree;
    private final String source;

    ListedBlocks(TreeNames tree, String source) {
        this.tree = tree;
        this.source = source;
    }

    /** The places {@code entry} of group {@code group}'s list names, in index order; {@code path}: its JSON path. */
    List<Place> resolve(String group, BlockList.Entry entry, String path) {
        String text = entry.text();
        List<Place> exact = tree.named(text);
        if (!exact.isEmpty()) {
            return List.of(only(group, entry, path, text, exact));
        }
        Matcher byIndex = BY_INDEX.matcher(text);
        if (!byIndex.matches()) {
            throw unknown(group, entry, path, text);
        }
        String parentName = byIndex.group(1);
        List<Place> parents = tree.named(parentName);
        if (parents.isEmpty()) {
            throw unknown(group, entry, path, parentName);
        }
        BuildingBlock parent = only(group, entry, path, parentName, parents).block();
        String part = byIndex.group(2);
        List<BuildingBlock> children = children(parent, part);
        if (children == null) {
            throw error(
                    entry,
                    path,
                    "group '" + group + "' lists \"" + text + "\", but " + TreeNames.describe(parent) + " has no "
                            + part + "; expected " + expectedPart(parent, parentName));
        }
        int first = Integer.parseInt(byIndex.group(3));
        int last = byIndex.group(4) == null ? first : Integer.parseInt(byIndex.group(4));
        if (last < first) {
            throw error(
                    entry,
                    path,
                    "group '" + group + "' lists \"" + text + "\", a range that ends before it starts; expected"
                            + " [first-last], like [" + last + "-" + first + "]");
        }
        if (last >= children.size()) {
            throw error(
                    entry,
                    path,
                    "group '" + group + "' lists \"" + text + "\", but " + TreeNames.describe(parent) + " has "
                            + children.size() + " " + part
                            + (children.isEmpty() ? "" : " (0-" + (children.size() - 1) + ")")
                            + "; expected indexes within them");
        }
        Role role = role(part);
        List<Place> places = new ArrayList<>();
        for (int i = first; i <= last; i++) {
            places.add(new Place(children.get(i), parent, role, i));
        }
        return places;
    }

    private Place only(String group, BlockList.Entry entry, String path, String name, List<Place> places) {
        if (places.size() == 1) {
            return places.get(0);
        }
        throw error(
                entry,
                path,
                "group '" + group + "' lists \"" + entry.text() + "\", but " + places.size() + " blocks of the program"
                        + " are named '" + name + "' ("
                        + places.stream().map(Place::describe).collect(Collectors.joining(", "))
                        + "); expected a name given to one block only: name each of them apart with .named(...)");
    }

    private ConfigException unknown(String group, BlockList.Entry entry, String path, String name) {
        List<String> names = tree.names();
        String known = names.isEmpty()
                ? "the program names no block; name the blocks a group takes with .named(...)"
                : "a name given with .named(...): "
                        + String.join(", ", names.subList(0, Math.min(NAMES_SHOWN, names.size())))
                        + (names.size() > NAMES_SHOWN ? ", ... (" + names.size() + " in all)" : "");
        return error(
                entry,
                path,
                "group '" + group + "' lists \"" + entry.text() + "\", but no block of the program is named '" + name
                        + "'; expected " + known);
    }

    private ConfigException error(BlockList.Entry entry, String path, String problem) {
        return new ConfigException(source, entry.line(), entry.column(), path + ": " + problem);
    }

    /** The children {@code part} takes of {@code parent}, or null when a block of its kind has none such. */
    private static List<BuildingBlock> children(BuildingBlock parent, String part) {
        return switch (part) {
            case "stages" -> parent instanceof Pipeline p ? p.stages() : null;
            case "workers" -> parent instanceof Farm f ? f.workers() : null;
            case "left" -> parent instanceof AllToAll a ? a.firstSet() : null;
            default -> parent instanceof AllToAll a ? a.secondSet() : null;
        };
    }

    private static String expectedPart(BuildingBlock parent, String name) {
        if (parent instanceof Pipeline) {
            return name + ".stages[...]";
        }
        if (parent instanceof Farm) {
            return name + ".workers[...]";
        }
        if (parent instanceof AllToAll) {
            return name + ".left[...] or " + name + ".right[...]";
        }
        return "the node's name alone, \"" + name + "\": a node has no children";
    }

    private static Role role(String part) {
        return switch (part) {
            case "stages" -> Role.STAGE;
            case "workers" -> Role.WORKER;
            case "left" -> Role.L_WORKER;
            default -> Role.R_WORKER;
        };
    }
}
