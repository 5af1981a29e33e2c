package org.fastflowj.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A distributed group (FastFlow's dgroup): a part of a program that runs as a process of its own when
 * the program is started as a distributed application (see ff-dist). Created by {@link
 * BuildingBlock#createGroup(String)} on the root block (level 0) or on one of its direct children (level
 * 1); {@link #include(BuildingBlock)} then puts direct children of that block into the group. A group with
 * no included child holds its whole block. A farm at any level may also give groups that include some of
 * its workers: those run there, the rest of the farm in the farm's own group.
 *
 * <p>A group is plain data: ff-core runs every program whole, in one process, and only checks the rules
 * (the 2022 paper's Fig. 6) when the graph is built, so a bad layout fails the same way with or without
 * a network. The rules and their error messages are in {@code org.fastflowj.core.graph.GroupLayout}.
 *
 * <p>Threading: build groups on the thread that builds the tree, before the run.
 */
public final class Group {
    /**
     * What a group name may be, as error messages say it. The launcher names files after groups (one log
     * per group in {@code --log-dir}) and passes them as arguments, so a name is kept to characters that
     * are no path separator, need no shell quoting and cannot read as an option or a hidden file.
     */
    public static final String NAME_RULE = "1 to 64 letters, digits, '_', '.' and '-', not starting with '.' or '-'";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}");

    private final String name;
    private final BuildingBlock parent;
    private final List<BuildingBlock> included = new ArrayList<>();

    Group(String name, BuildingBlock parent) {
        this.name = name;
        this.parent = parent;
    }

    /**
     * Puts {@code child}, a direct child of the block this group was created from (a pipeline stage, an
     * all-to-all L-Worker or R-Worker, a farm's worker), into this group; the C++ {@code G << child}. A
     * farm's worker moves whole; the farm's emitter and collector stay in the farm's own group.
     */
    public Group include(BuildingBlock child) {
        included.add(Objects.requireNonNull(child, "child"));
        return this;
    }

    /** Whether {@code name} may name a group ({@link #NAME_RULE}). */
    public static boolean isValidName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    public String name() {
        return name;
    }

    /** The block the group was created from. */
    public BuildingBlock parent() {
        return parent;
    }

    /** The children put in the group, in the order of the {@code include} calls; empty for the whole block. */
    public List<BuildingBlock> included() {
        return Collections.unmodifiableList(included);
    }

    @Override
    public String toString() {
        return "group " + name;
    }
}
