package org.fastflowj.dist;

import java.util.List;
import java.util.Objects;

/**
 * The {@code blocks} of a config's group: the program's blocks the group takes, named as the program named
 * them ({@code .named("reader")}), or a farm's workers, an all-to-all's L- or R-Workers, a pipeline's stages
 * by index ({@code "search.workers[2-3]"}). See {@code docs/distributed.md}, "Groups in the config".
 *
 * <p>Threading: immutable, safe to share.
 *
 * @param entries the strings of the list, in order, each with its place in the config text
 * @param line the 1-based line of the {@code blocks} key
 * @param column the 1-based column of the {@code blocks} key
 */
public record BlockList(List<Entry> entries, int line, int column) {
    public BlockList {
        entries = List.copyOf(entries);
    }

    /**
     * One string of a {@code blocks} list.
     *
     * @param text the string as written
     * @param line the 1-based line where it starts
     * @param column the 1-based column where it starts
     */
    public record Entry(String text, int line, int column) {
        public Entry {
            Objects.requireNonNull(text, "text");
        }
    }
}
