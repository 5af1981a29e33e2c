package org.fastflowj.core.checkpoint;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoints of a program run as groups, in one directory every group reaches (shared, or local
 * when every group runs on one host): each group saves its own part of checkpoint {@code n} in a
 * directory of its own ({@code <store>/<group>/chk-n.ffcp}), and checkpoint {@code n} is complete once
 * every group saved its part, or had ended before it: a group whose nodes all ended leaves an end record
 * ({@code end.ffcp}: the last checkpoint it saved a part of, and the states its sinks ended with) that
 * stands for its part of every later checkpoint.
 *
 * <p>Which checkpoint a restart resumes from is decided once, before any group starts again ({@link
 * #newestComplete}; the launcher does it while no group runs), and handed to every group, so that no
 * group can see the store change under it while it decides.
 *
 * <p>Threading: a group's checkpoint thread saves and polls; reading is safe from any thread.
 */
public final class GroupCheckpoints {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCheckpoints.class);
    private static final Pattern GROUP_NAME = Pattern.compile("[A-Za-z0-9_.-]+");

    private final String group;
    private final DirectoryStore root;
    private final Map<String, DirectoryStore> groups = new LinkedHashMap<>();

    private GroupCheckpoints(DirectoryStore root, String group, Collection<String> groups) {
        this.root = root;
        this.group = group;
        for (String g : new TreeSet<>(groups)) {
            if (!GROUP_NAME.matcher(g).matches() || g.startsWith(".")) {
                throw new IllegalArgumentException("checkpoints: group name '" + g
                        + "' cannot name a directory of the store; use letters, digits, '_', '-' and '.'");
            }
            this.groups.put(g, root.group(g));
        }
        if (group != null && !this.groups.containsKey(group)) {
            throw new IllegalArgumentException("checkpoints: group " + group + " is not among " + this.groups.keySet());
        }
    }

    /**
     * The checkpoints of group {@code group} (null: none, for reading only) of a program whose groups are
     * {@code groups}, in {@code store}.
     *
     * @throws IllegalArgumentException if {@code store} is not a directory store, or a name cannot be a
     *     directory's
     */
    public static GroupCheckpoints of(CheckpointStore store, String group, Collection<String> groups) {
        if (!(store instanceof DirectoryStore directory)) {
            throw new IllegalArgumentException("checkpoints: a program in groups keeps its checkpoints in a directory"
                    + " every group reaches (CheckpointStore.directory), not in " + store.describe());
        }
        return new GroupCheckpoints(directory, group, groups);
    }

    /** {@link #of} for a directory keeping {@code retained} checkpoints per group. */
    public static GroupCheckpoints of(Path directory, int retained, String group, Collection<String> groups) {
        return of(CheckpointStore.directory(directory, retained), group, groups);
    }

    /** This group's name. */
    public String group() {
        return group;
    }

    /** Where this group saves its parts. */
    public CheckpointStore own() {
        return groups.get(group);
    }

    /** Where the checkpoints are, for messages. */
    public String describe() {
        return root.describe();
    }

    /** The highest checkpoint number any group saved a part of or ended after (0 if none). */
    public long highestId() throws IOException {
        long highest = 0;
        for (DirectoryStore store : groups.values()) {
            highest = Math.max(highest, store.highestId());
            Optional<Checkpoint> end = readEndQuietly(store);
            if (end.isPresent()) {
                highest = Math.max(highest, end.get().id());
            }
        }
        return highest;
    }

    /**
     * Whether every group saved its part of checkpoint {@code id} or recorded its end before it. Files
     * appear whole under their names, so this looks only at names, and is cheap enough to poll; {@link
     * #newestComplete} also checks what they hold.
     */
    public boolean complete(long id) {
        for (DirectoryStore store : groups.values()) {
            if (!store.has(id) && !endedBefore(store, id)) {
                return false;
            }
        }
        return true;
    }

    private static boolean endedBefore(DirectoryStore store, long id) {
        if (!store.hasEnd()) {
            return false;
        }
        Optional<Checkpoint> end = readEndQuietly(store);
        return end.isPresent() && end.get().id() < id;
    }

    private static Optional<Checkpoint> readEndQuietly(DirectoryStore store) {
        try {
            return store.readEnd();
        } catch (IOException e) {
            return Optional.empty(); // a damaged end record stands for no end
        }
    }

    /**
     * The newest checkpoint complete in every group whose every part reads back whole and checked (0:
     * none); a newer complete one with a damaged part is named in a warning. Call it only while no group
     * runs.
     */
    public long newestComplete() throws IOException {
        TreeSet<Long> candidates = new TreeSet<>();
        for (DirectoryStore store : groups.values()) {
            candidates.addAll(store.ids());
        }
        List<String> problems = new ArrayList<>();
        for (long id : candidates.descendingSet()) {
            if (!complete(id)) {
                continue; // a group failed before every group saved its part: never complete, not damaged
            }
            String problem = unusable(id);
            if (problem == null) {
                if (!problems.isEmpty()) {
                    LOG.warn(
                            "resuming from checkpoint {} in {}: newer ones are unusable: {}", id, describe(), problems);
                }
                return id;
            }
            problems.add("checkpoint " + id + ": " + problem);
        }
        if (!problems.isEmpty()) {
            LOG.warn("no checkpoint in {} is complete and whole: {}", describe(), problems);
        }
        return 0;
    }

    /** Why checkpoint {@code id} cannot be restored, or null if every group's part of it reads whole. */
    private String unusable(long id) throws IOException {
        for (Map.Entry<String, DirectoryStore> g : groups.entrySet()) {
            try {
                partIn(g.getValue(), id);
            } catch (CorruptCheckpointException e) {
                return "group " + g.getKey() + ": " + e.getMessage();
            }
        }
        return null;
    }

    /**
     * This group's part of checkpoint {@code id}: the one it saved, or, when it had ended before, its end
     * record (its nodes start as ended, its sinks with the states they ended with).
     *
     * @throws CorruptCheckpointException if neither is there and whole
     */
    public Checkpoint partOf(long id) throws IOException {
        return partIn(groups.get(group), id);
    }

    private static Checkpoint partIn(DirectoryStore store, long id) throws IOException {
        if (store.has(id)) {
            return store.read(id);
        }
        Optional<Checkpoint> end = store.readEnd();
        if (end.isPresent() && end.get().id() < id) {
            return end.get();
        }
        throw new CorruptCheckpointException(
                "no part of checkpoint " + id + " in " + store.directory() + " and no end before it");
    }

    /** Records that this group's nodes all ended; see the class comment. */
    public void saveEnd(Checkpoint end) throws IOException {
        groups.get(group).saveEnd(end);
    }

    /**
     * Drops this group's end record, as it starts running again: the checkpoints it takes part in from
     * now on must wait for its parts. Only once the checkpoint to resume from was chosen.
     */
    public void clearEnd() throws IOException {
        groups.get(group).deleteEnd();
    }

    /**
     * Deletes this group's parts of checkpoints after {@code id}, as a restart resumes from {@code id}:
     * those never completed (or the restart would have taken one), and their numbers are never used
     * again, so they would only push the checkpoints to keep out of the retained ones.
     */
    public void dropPartsAfter(long id) throws IOException {
        groups.get(group).dropAfter(id);
    }

    /** The highest checkpoint number this group saved a part of (0 if none). */
    public long ownHighestId() throws IOException {
        return groups.get(group).highestId();
    }
}
