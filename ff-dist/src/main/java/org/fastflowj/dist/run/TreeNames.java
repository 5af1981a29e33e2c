package org.fastflowj.dist.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fastflowj.core.AllToAll;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.Farm;
import org.fastflowj.core.Group;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/**
 * The blocks of a program's tree by the names the program gave them ({@link BuildingBlock#named}), each with
 * its place: the block it is a child of and what it is there. A config's {@code blocks} lists are resolved
 * against it ({@link ListedBlocks}).
 *
 * <p>Threading: built and read on the thread that starts the run.
 */
final class TreeNames {
    /** What a block is to its parent. */
    enum Role {
        ROOT("the root"),
        STAGE("stage"),
        WORKER("worker"),
        L_WORKER("L-Worker"),
        R_WORKER("R-Worker"),
        EMITTER("the emitter"),
        COLLECTOR("the collector");

        private final String words;

        Role(String words) {
            this.words = words;
        }
    }

    /** A block of the tree: its parent (null for the root), its role there and its index among its kind. */
    record Place(BuildingBlock block, BuildingBlock parent, Role role, int index) {
        /** The place in words: "stage 1 of pipeline 'main'", "the root". */
        String describe() {
            return switch (role) {
                case ROOT -> "the root";
                case EMITTER, COLLECTOR -> role.words + " of " + TreeNames.describe(parent);
                default -> role.words + " " + index + " of " + TreeNames.describe(parent);
            };
        }
    }

    private final BuildingBlock root;
    private final Map<String, List<Place>> byName = new LinkedHashMap<>();
    private final List<Group> groups = new ArrayList<>();

    private TreeNames(BuildingBlock root) {
        this.root = root;
    }

    static TreeNames of(BuildingBlock root) {
        TreeNames names = new TreeNames(root);
        names.visit(new Place(root, null, Role.ROOT, 0));
        return names;
    }

    BuildingBlock root() {
        return root;
    }

    /** The places of the blocks named {@code name}: none, one, or several when the program reused a name. */
    List<Place> named(String name) {
        return byName.getOrDefault(name, List.of());
    }

    /** Every name the program gave, in tree order. */
    List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /** The groups the tree's blocks have already, in tree order. */
    List<Group> groups() {
        return List.copyOf(groups);
    }

    private void visit(Place place) {
        BuildingBlock block = place.block();
        groups.addAll(block.groups());
        if (block.givenName() != null) {
            byName.computeIfAbsent(block.givenName(), n -> new ArrayList<>()).add(place);
        }
        if (block instanceof Pipeline pipe) {
            visitAll(pipe.stages(), block, Role.STAGE);
        } else if (block instanceof Farm farm) {
            visitOne(farm.emitter(), block, Role.EMITTER);
            visitAll(farm.workers(), block, Role.WORKER);
            visitOne(farm.collector(), block, Role.COLLECTOR);
        } else if (block instanceof AllToAll a2a) {
            visitAll(a2a.firstSet(), block, Role.L_WORKER);
            visitAll(a2a.secondSet(), block, Role.R_WORKER);
        }
    }

    private void visitAll(List<BuildingBlock> children, BuildingBlock parent, Role role) {
        for (int i = 0; i < children.size(); i++) {
            visit(new Place(children.get(i), parent, role, i));
        }
    }

    private void visitOne(Node<?, ?> node, BuildingBlock parent, Role role) {
        if (node != null) {
            visit(new Place(node, parent, role, 0));
        }
    }

    /** A block in words: its kind and its name, as a config names it. */
    static String describe(BuildingBlock block) {
        String kind = block instanceof Pipeline
                ? "pipeline"
                : block instanceof Farm ? "farm" : block instanceof AllToAll ? "all-to-all" : "node";
        return block.givenName() != null ? kind + " '" + block.givenName() + "'" : "the unnamed " + block;
    }
}
